package dev.svc.protocol.a2a;

import static dev.svc.protocol.jsonrpc.MethodHandler.result;

import dev.svc.auth.OAuthPolicy;
import dev.svc.call.ClientText;
import dev.svc.json.Json;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.protocol.jsonrpc.MethodHandler;
import dev.svc.protocol.jsonrpc.MethodReply;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The A2A v1 JSON-RPC methods (§5.3, §9): those that answer with one JSON result, and the two that
 * answer with a stream of the task's events ({@link TaskStream}).
 */
final class A2aMethods {
  static final int DEFAULT_PAGE_SIZE = 50;
  static final int MAX_PAGE_SIZE = 100;

  /** The most push notification configs one task may have. */
  static final int MAX_PUSH_CONFIGS = 10;

  private final AgentTasks tasks;
  private final PushDestinations destinations;
  private final Duration keepAlive;
  private final Optional<OAuthPolicy> auth;
  private final TaskFollowers followers;

  /**
   * @param keepAlive how often an idle stream gets a keep-alive
   * @param auth {@code server.auth}, which the extended card advertises
   * @param followers the streams following tasks other instances run, ended by a drain
   */
  A2aMethods(
      AgentTasks tasks,
      PushDestinations destinations,
      Duration keepAlive,
      Optional<OAuthPolicy> auth,
      TaskFollowers followers) {
    this.followers = followers;
    this.tasks = tasks;
    this.destinations = destinations;
    this.keepAlive = keepAlive;
    this.auth = auth;
  }

  Map<String, MethodHandler<A2aCall>> handlers() {
    return Map.ofEntries(
        Map.entry("SendMessage", result(this::sendMessage)),
        Map.entry("SendStreamingMessage", this::startStream),
        Map.entry("SubscribeToTask", this::subscribe),
        Map.entry("GetTask", result(this::getTask)),
        Map.entry("ListTasks", result(this::listTasks)),
        Map.entry("CancelTask", result(this::cancelTask)),
        Map.entry("CreateTaskPushNotificationConfig", result(this::createPushConfig)),
        Map.entry("GetTaskPushNotificationConfig", result(this::getPushConfig)),
        Map.entry("ListTaskPushNotificationConfigs", result(this::listPushConfigs)),
        Map.entry("DeleteTaskPushNotificationConfig", result(this::deletePushConfig)),
        Map.entry("GetExtendedAgentCard", result(this::extendedCard)));
  }

  /**
   * The methods of A2A v0.3 and what v1 calls them. v1 renamed every method; a v0.3 client gets
   * method-not-found naming the method to call instead, not a bare "Method not found".
   */
  static final Map<String, String> V1_NAMES_OF_V03 =
      Map.ofEntries(
          Map.entry("message/send", "SendMessage"),
          Map.entry("message/stream", "SendStreamingMessage"),
          Map.entry("tasks/get", "GetTask"),
          Map.entry("tasks/cancel", "CancelTask"),
          Map.entry("tasks/resubscribe", "SubscribeToTask"),
          Map.entry("tasks/pushNotificationConfig/set", "CreateTaskPushNotificationConfig"),
          Map.entry("tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig"),
          Map.entry("tasks/pushNotificationConfig/list", "ListTaskPushNotificationConfigs"),
          Map.entry("tasks/pushNotificationConfig/delete", "DeleteTaskPushNotificationConfig"),
          Map.entry("agent/getAuthenticatedExtendedCard", "GetExtendedAgentCard"));

  /** Method-not-found for a v0.3 method name, naming its v1 method; empty for any other name. */
  static Optional<JsonRpcException> renamedInV1(String method) {
    return Optional.ofNullable(V1_NAMES_OF_V03.get(method))
        .map(v1 ->
            JsonRpcException.withCode(
                ErrorCodes.METHOD_NOT_FOUND,
                "Method not found: "
                    + method
                    + " is an A2A v0.3 method; this server speaks A2A v1, where it is "
                    + v1));
  }

  /** A parsed {@code SendMessageRequest}. */
  record Send(Message message, SendConfiguration configuration) {}

  static Send send(ObjectNode params) {
    JsonNode message =
        Wire.field(params, "message")
            .orElseThrow(() -> A2aErrors.invalidParams("`message` is required"));
    SendConfiguration configuration =
        Wire.field(params, "configuration")
            .map(c -> SendConfiguration.fromJson(c, "configuration"))
            .orElse(SendConfiguration.DEFAULT);
    List<String> modes = configuration.acceptedOutputModes();
    if (!modes.isEmpty()
        && modes.stream()
            .noneMatch(m -> m.equals("text/plain") || m.equals("text/*") || m.equals("*/*"))) {
      throw A2aErrors.contentTypeNotSupported(
          "Incompatible content types: this agent answers in text/plain; accepted: "
              + String.join(", ", modes));
    }
    return new Send(Message.fromJson(message, "message"), configuration);
  }

  /**
   * {@code SendMessage}: blocks until the task ends unless {@code returnImmediately}. A message
   * received before answers with the task it started, waited for in the same way.
   */
  private JsonNode sendMessage(A2aCall call, ObjectNode params) {
    Send send = send(params);
    boolean waits = !send.configuration().returnImmediately();
    Task task =
        switch (start(call, send, false)) {
          case AgentTasks.Started started -> {
            started.run().unsubscribe(started.subscription());
            yield waits ? ended(started.run()) : started.subscription().snapshot();
          }
          case AgentTasks.Resent resent -> {
            if (!waits || resent.task().status().state().isTerminal()) {
              yield resent.task();
            }
            if (resent.run().isPresent()) {
              yield ended(resent.run().get());
            }
            yield ended(call.scope(), resent.task());
          }
        };
    ObjectNode result = Json.NODES.objectNode();
    result.set("task", task.view(send.configuration().historyLength(), true).toJson());
    return result;
  }

  private static Task ended(TaskRun run) {
    try {
      run.awaitEnd();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return run.task();
  }

  /**
   * A task no run of this instance holds, once it has ended (as it is when waiting is interrupted):
   * another instance's, or, with a store of this process only, one whose run ended since the task
   * was read (its final state is saved before the run lets go of it, so the store has it).
   */
  private Task ended(TaskStore.Scope scope, Task task) {
    Optional<SharedTasks> shared = tasks.store().shared();
    if (shared.isEmpty()) {
      return tasks.find(scope, task.id()).orElse(task);
    }
    try {
      return shared.get().awaitEnd(scope, task.id()).orElse(task);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return tasks.find(scope, task.id()).orElse(task);
    }
  }

  private AgentTasks.Begun start(A2aCall call, Send send, boolean streaming) {
    send.configuration()
        .pushConfig()
        .ifPresent(
            config -> checkDestination(config, "configuration.taskPushNotificationConfig.url"));
    return tasks.start(
        call.agent(),
        call.principal(),
        call.runtime(),
        send.message(),
        send.configuration(),
        call.caller(),
        streaming);
  }

  /**
   * {@code SendStreamingMessage}: starts the task, subscribed before its thread runs. A message
   * received before streams the task it started: from now on while it runs, or the ended task.
   */
  private MethodReply startStream(A2aCall call, ObjectNode params) {
    return switch (start(call, send(params), true)) {
      case AgentTasks.Started started -> TaskStream.of(started, keepAlive);
      case AgentTasks.Resent resent -> resentStream(call.scope(), resent);
    };
  }

  private MethodReply resentStream(TaskStore.Scope scope, AgentTasks.Resent resent) {
    if (resent.run().isPresent()) {
      TaskRun.Subscription subscription = resent.run().get().subscribe();
      return TaskStream.of(new AgentTasks.Started(resent.run().get(), subscription), keepAlive);
    }
    Optional<SharedTasks> shared = tasks.store().shared();
    if (shared.isPresent() && !resent.task().status().state().isTerminal()) {
      return TaskStream.shared(shared.get(), followers, scope, resent.task().id(), keepAlive);
    }
    return TaskStream.ended(resent.task());
  }

  /** {@code SubscribeToTask}: the running task's events. */
  private MethodReply subscribe(A2aCall call, ObjectNode params) {
    String id = Wire.requiredString(params, "id", "id");
    TaskStore.Scope scope = call.scope();
    Optional<TaskRun> run = tasks.running(scope, id);
    if (run.isPresent()) {
      TaskRun.Subscription subscription = run.get().subscribe();
      if (!subscription.snapshot().status().state().isTerminal()) {
        return TaskStream.of(new AgentTasks.Started(run.get(), subscription), keepAlive);
      }
    }
    Task task = tasks.find(scope, id).orElseThrow(() -> A2aErrors.taskNotFound(id));
    if (task.status().state().isTerminal()) {
      throw A2aErrors.unsupportedOperation(
          "Task "
              + id
              + " is in a terminal state ("
              + task.status().state().wireName()
              + ") and cannot be subscribed to.");
    }
    Optional<SharedTasks> shared = tasks.store().shared();
    if (shared.isPresent()) {
      return TaskStream.shared(
          shared.get(), followers, scope, id, keepAlive); // run by another instance
    }
    throw A2aErrors.unsupportedOperation(
        "Task " + id + " is not running in this server instance, so it cannot be subscribed to.");
  }

  private JsonNode getTask(A2aCall call, ObjectNode params) {
    String id = Wire.requiredString(params, "id", "id");
    Optional<Integer> historyLength = historyLength(params);
    Task task = tasks.find(call.scope(), id).orElseThrow(() -> A2aErrors.taskNotFound(id));
    return task.view(historyLength, true).toJson();
  }

  private static Optional<Integer> historyLength(ObjectNode params) {
    Optional<Integer> historyLength = Wire.integer(params, "historyLength", "historyLength");
    if (historyLength.isPresent() && historyLength.get() < 0) {
      throw A2aErrors.invalidParams("`historyLength` must not be negative");
    }
    return historyLength;
  }

  private JsonNode listTasks(A2aCall call, ObjectNode params) {
    int pageSize = Wire.integer(params, "pageSize", "pageSize").orElse(0);
    if (pageSize == 0) {
      pageSize = DEFAULT_PAGE_SIZE;
    }
    if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw A2aErrors.invalidParams("`pageSize` must be between 1 and " + MAX_PAGE_SIZE);
    }
    Optional<TaskState> state =
        Wire.string(params, "status", "status")
            .map(s ->
                TaskState.parse(s)
                    .orElseThrow(() ->
                        A2aErrors.invalidParams(
                            "`status` is not a task state: " + ClientText.shown(s))))
            .filter(s -> s != TaskState.UNSPECIFIED);
    Optional<Instant> after =
        Wire.string(params, "statusTimestampAfter", "statusTimestampAfter")
            .filter(s -> !s.isEmpty())
            .map(s -> Wire.parseTimestamp(s, "statusTimestampAfter"));
    Optional<TaskStore.Cursor> cursor =
        Wire.string(params, "pageToken", "pageToken")
            .filter(s -> !s.isEmpty())
            .map(A2aMethods::cursor);
    Optional<Integer> historyLength = historyLength(params);
    boolean includeArtifacts =
        Wire.field(params, "includeArtifacts").isPresent()
            && Wire.bool(params, "includeArtifacts", "includeArtifacts");
    TaskStore.Page page =
        tasks
            .store()
            .list(
                call.scope(),
                new TaskStore.Query(
                    Wire.id(params, "contextId", "contextId").filter(s -> !s.isEmpty()),
                    state,
                    after,
                    pageSize,
                    cursor));
    ObjectNode result = Json.NODES.objectNode();
    ArrayNode list = result.putArray("tasks");
    Optional<TaskStore.Cursor> next = page.next();
    long bytes = 0;
    for (Task task : page.tasks()) {
      Task view =
          tasks.find(call.scope(), task.id()).orElse(task).view(historyLength, includeArtifacts);
      bytes += TaskWeight.of(view);
      // the page holds at most MAX_READ_BYTES of tasks, estimated (TaskWeight), at least one
      if (bytes > TaskStore.MAX_READ_BYTES && !list.isEmpty()) {
        // a page of a hundred tasks that each hold a 4 MiB message would be 400 MiB of JSON:
        // the page ends early, and the next one starts at the task left out
        Task last = page.tasks().get(list.size() - 1);
        next = Optional.of(new TaskStore.Cursor(last.status().timestamp(), last.id()));
        break;
      }
      ObjectNode json = view.toJson();
      if (includeArtifacts && !json.has("artifacts")) {
        json.putArray("artifacts");
      }
      list.add(json);
    }
    result.put("nextPageToken", next.map(A2aMethods::token).orElse(""));
    result.put("pageSize", pageSize);
    result.put("totalSize", page.totalSize());
    return result;
  }

  static String token(TaskStore.Cursor cursor) {
    String text = cursor.timestamp().toEpochMilli() + "|" + cursor.taskId();
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  static TaskStore.Cursor cursor(String token) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
      int bar = text.indexOf('|');
      return new TaskStore.Cursor(
          Instant.ofEpochMilli(Long.parseLong(text.substring(0, bar))), text.substring(bar + 1));
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw A2aErrors.invalidParams("`pageToken` is not a token this server gave out");
    }
  }

  private JsonNode cancelTask(A2aCall call, ObjectNode params) {
    String id = Wire.requiredString(params, "id", "id");
    return tasks.cancel(call.scope(), id).toJson();
  }

  private JsonNode createPushConfig(A2aCall call, ObjectNode params) {
    PushConfig config = PushConfig.fromJson(params, "params");
    if (config.taskId().isEmpty()) {
      throw A2aErrors.invalidParams("`taskId` is required");
    }
    TaskStore.Scope scope = call.scope();
    tasks.find(scope, config.taskId()).orElseThrow(() -> A2aErrors.taskNotFound(config.taskId()));
    checkDestination(config, "url");
    List<PushConfig> existing = tasks.store().pushConfigs(scope, config.taskId());
    if (existing.size() >= MAX_PUSH_CONFIGS
        && existing.stream().noneMatch(e -> e.id().equals(config.id()))) {
      // each is called on every change of the task: a bound on what one client makes svc send
      throw A2aErrors.invalidParams(
          "task "
              + config.taskId()
              + " already has "
              + MAX_PUSH_CONFIGS
              + " push notification configs, the most a task may have: delete one first");
    }
    PushConfig saved =
        config.withIds(
            config.id().isEmpty() ? UUID.randomUUID().toString() : config.id(), config.taskId());
    tasks.store().savePushConfig(scope, saved);
    return saved.toJson();
  }

  /** Refuses a push URL svc may not call (see {@link PushDestinations}) with invalid params. */
  private void checkDestination(PushConfig config, String path) {
    destinations
        .refusal(config.url())
        .ifPresent(reason -> {
          throw A2aErrors.invalidParams("`" + path + "` is refused: " + reason);
        });
  }

  private JsonNode getPushConfig(A2aCall call, ObjectNode params) {
    String taskId = Wire.requiredString(params, "taskId", "taskId");
    String id = Wire.requiredString(params, "id", "id");
    return pushConfigs(call, taskId).stream()
        .filter(c -> c.id().equals(id))
        .findFirst()
        .orElseThrow(() -> configNotFound(taskId, id))
        .toJson();
  }

  private List<PushConfig> pushConfigs(A2aCall call, String taskId) {
    TaskStore.Scope scope = call.scope();
    tasks.find(scope, taskId).orElseThrow(() -> A2aErrors.taskNotFound(taskId));
    return tasks.store().pushConfigs(scope, taskId);
  }

  private static RuntimeException configNotFound(String taskId, String id) {
    return A2aErrors.pushConfigNotFound(taskId, id);
  }

  private JsonNode listPushConfigs(A2aCall call, ObjectNode params) {
    String taskId = Wire.requiredString(params, "taskId", "taskId");
    List<PushConfig> configs = pushConfigs(call, taskId);
    int pageSize = Wire.integer(params, "pageSize", "pageSize").orElse(0);
    if (pageSize <= 0) {
      pageSize = MAX_PAGE_SIZE;
    }
    int offset =
        Wire.string(params, "pageToken", "pageToken")
            .filter(s -> !s.isEmpty())
            .map(A2aMethods::configOffset)
            .orElse(0);
    // in long: an offset near Integer.MAX_VALUE plus the page size must not wrap below zero
    int end = (int) Math.min(configs.size(), (long) offset + pageSize);
    ObjectNode result = Json.NODES.objectNode();
    ArrayNode list = result.putArray("configs");
    for (PushConfig config : configs.subList(Math.min(offset, end), end)) {
      list.add(config.toJson());
    }
    result.put(
        "nextPageToken",
        end < configs.size()
            ? Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(String.valueOf(end).getBytes(StandardCharsets.UTF_8))
            : "");
    return result;
  }

  /**
   * The offset a {@code ListTaskPushNotificationConfigs} page token holds. The token is the
   * client's to send back, so a forged one (a negative offset, not a number) is invalid params, not
   * a server fault: {@code -5} used to reach {@code subList} and answer {@code -32603}, logged as
   * an error.
   */
  private static int configOffset(String token) {
    try {
      int offset =
          Integer.parseInt(
              new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
      if (offset >= 0) {
        return offset;
      }
    } catch (IllegalArgumentException e) {
      // refused below, as any other token svc did not give out
    }
    throw A2aErrors.invalidParams("`pageToken` is not a token this server gave out");
  }

  private JsonNode deletePushConfig(A2aCall call, ObjectNode params) {
    String taskId = Wire.requiredString(params, "taskId", "taskId");
    String id = Wire.requiredString(params, "id", "id");
    pushConfigs(call, taskId);
    if (!tasks.store().deletePushConfig(call.scope(), taskId, id)) {
      throw configNotFound(taskId, id);
    }
    return Json.NODES.objectNode();
  }

  private JsonNode extendedCard(A2aCall call, ObjectNode params) {
    var model = call.runtime().model();
    return AgentCards.extended(
        call.agent(), model, call.http().baseUrl(), AgentCards.tools(call.agent(), model), auth);
  }
}

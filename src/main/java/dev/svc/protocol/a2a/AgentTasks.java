package dev.svc.protocol.a2a;

import dev.svc.agent.AgentLoop;
import dev.svc.agent.AgentTools;
import dev.svc.agent.ModelCallInterruptedException;
import dev.svc.agent.ModelClient;
import dev.svc.agent.ModelClients;
import dev.svc.agent.ModelException;
import dev.svc.agent.ModelSettings;
import dev.svc.agent.Turn;
import dev.svc.call.Caller;
import dev.svc.log.Log;
import dev.svc.log.LogContext;
import dev.svc.model.Agent;
import dev.svc.model.MissingVariableException;
import dev.svc.project.Environment;
import dev.svc.runtime.ProjectRuntime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Creates and runs tasks: a new user message becomes a task in its conversation (context), whose
 * agent loop runs on its own virtual thread. Keeps the tasks running in this process so they can be
 * canceled and subscribed to; everything else about tasks is in the {@link TaskStore}.
 */
final class AgentTasks implements AutoCloseable {
  private static final Log LOG = Log.tagged("a2a");

  /** At most this many earlier messages of a conversation are sent to the model. */
  static final int MAX_EARLIER_MESSAGES = 50;

  private final TaskStore store;
  private final PushNotifier push;
  private final Environment environment;
  private final Clock clock;
  private final ConcurrentHashMap<String, TaskRun> running = new ConcurrentHashMap<>();
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

  AgentTasks(TaskStore store, PushNotifier push, Environment environment, Clock clock) {
    this.store = store;
    this.push = push;
    this.environment = environment;
    this.clock = clock;
  }

  TaskStore store() {
    return store;
  }

  /** The task as it is now: live when it runs here, else from the store. */
  Optional<Task> find(String agent, String taskId) {
    TaskRun run = running.get(key(agent, taskId));
    return run != null ? Optional.of(run.task()) : store.find(agent, taskId);
  }

  Optional<TaskRun> running(String agent, String taskId) {
    return Optional.ofNullable(running.get(key(agent, taskId)));
  }

  /** A task just started, and a subscription to it taken before its agent began. */
  record Started(TaskRun run, TaskRun.Subscription subscription) {}

  /**
   * Starts a task for a user message.
   *
   * @param streaming whether the model's text is streamed into artifact chunks
   * @throws dev.svc.protocol.jsonrpc.JsonRpcException for a message that names an unknown or
   *     running task, or carries parts the agent cannot read
   */
  Started start(
      Agent agent,
      ProjectRuntime runtime,
      Message message,
      SendConfiguration configuration,
      Caller caller,
      boolean streaming) {
    String userText = MessageText.of(message);
    String contextId = contextOf(agent.name(), message);
    List<Turn> conversation = new ArrayList<>(earlierTurns(agent.name(), contextId));
    conversation.add(new Turn.User(userText));

    String taskId = UUID.randomUUID().toString();
    Task task =
        new Task(
            taskId,
            contextId,
            TaskStatus.of(TaskState.SUBMITTED, clock.instant()),
            List.of(),
            List.of(message.inTask(contextId, taskId)),
            Optional.empty());
    store.save(agent.name(), task);
    configuration
        .pushConfig()
        .ifPresent(config ->
            store.savePushConfig(
                agent.name(),
                config.withIds(
                    config.id().isEmpty() ? UUID.randomUUID().toString() : config.id(), taskId)));
    TaskRun run =
        new TaskRun(
            agent.name(),
            task,
            clock,
            changed -> {
              store.save(agent.name(), changed);
              push.notify(store.pushConfigs(agent.name(), changed.id()), changed);
            });
    push.notify(store.pushConfigs(agent.name(), taskId), task);
    running.put(key(agent.name(), taskId), run);
    TaskRun.Subscription subscription = run.subscribe();
    run.started(
        threads.submit(() ->
            ScopedValue.where(LogContext.REQUEST_ID, caller.requestId())
                .where(Caller.CURRENT, caller)
                .run(() -> execute(run, agent, runtime, conversation, caller, streaming))));
    return new Started(run, subscription);
  }

  private void execute(
      TaskRun run,
      Agent agent,
      ProjectRuntime runtime,
      List<Turn> conversation,
      Caller caller,
      boolean streaming) {
    long started = System.nanoTime();
    try {
      if (!run.status(TaskState.WORKING, Optional.empty())) {
        return;
      }
      ModelSettings settings = ModelSettings.of(agent.model(), environment);
      ModelClient client = ModelClients.create(settings, environment);
      AgentLoop loop =
          new AgentLoop(agent, client, new AgentTools(agent, runtime.tools()), settings.maxSteps());
      AgentLoop.Answer answer = loop.run(conversation, caller, streaming, run::chunk);
      run.answer(answer.text());
      Task task = run.task();
      run.status(
          TaskState.COMPLETED,
          Optional.of(Message.agent(answer.text(), task.contextId(), task.id())));
      LOG.info(
          "task completed",
          "agent",
          agent.name(),
          "task",
          run.id(),
          "ms",
          (System.nanoTime() - started) / 1_000_000);
    } catch (ModelCallInterruptedException e) {
      fail(run, "the task was stopped before it finished");
    } catch (ModelException | MissingVariableException e) {
      LOG.warn("task failed", "agent", agent.name(), "task", run.id(), "error", e.getMessage());
      fail(run, e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("task failed unexpectedly", e, "agent", agent.name(), "task", run.id());
      fail(run, "internal error (request id " + caller.requestId() + ")");
    } finally {
      running.remove(key(agent.name(), run.id()), run);
    }
  }

  /** Fails the task with an agent message saying why (a canceled task stays canceled). */
  private static void fail(TaskRun run, String reason) {
    Task task = run.task();
    run.status(TaskState.FAILED, Optional.of(Message.agent(reason, task.contextId(), task.id())));
  }

  /**
   * Cancels a task: a running one is ended and its model call interrupted.
   *
   * @throws dev.svc.protocol.jsonrpc.JsonRpcException task not found, or already ended
   */
  Task cancel(String agent, String taskId) {
    TaskRun run = running.get(key(agent, taskId));
    if (run != null) {
      if (!run.cancel()) {
        throw A2aErrors.taskNotCancelable(taskId, run.task().status().state());
      }
      return run.task();
    }
    Task task = store.find(agent, taskId).orElseThrow(() -> A2aErrors.taskNotFound(taskId));
    if (task.status().state().isTerminal()) {
      throw A2aErrors.taskNotCancelable(taskId, task.status().state());
    }
    // A task the store holds as running but no thread of this process runs (another instance
    // of a shared store, or a crash): mark it canceled.
    Task canceled = task.withStatus(TaskStatus.of(TaskState.CANCELED, clock.instant()));
    store.save(agent, canceled);
    push.notify(store.pushConfigs(agent, taskId), canceled);
    return canceled;
  }

  /** The conversation a message belongs to: its task's, its own, or a new one. */
  private String contextOf(String agent, Message message) {
    if (message.taskId().isPresent()) {
      String taskId = message.taskId().get();
      Task earlier = find(agent, taskId).orElseThrow(() -> A2aErrors.taskNotFound(taskId));
      if (!earlier.status().state().isTerminal()) {
        throw A2aErrors.unsupportedOperation(
            "Task "
                + taskId
                + " is still running; wait for it to finish (or cancel it) before continuing"
                + " its conversation");
      }
      if (message.contextId().isPresent()
          && !message.contextId().get().equals(earlier.contextId())) {
        throw A2aErrors.invalidParams(
            "contextId "
                + message.contextId().get()
                + " does not match task "
                + taskId
                + ", whose contextId is "
                + earlier.contextId());
      }
      return earlier.contextId();
    }
    return message.contextId().orElseGet(() -> UUID.randomUUID().toString());
  }

  /**
   * The messages of the conversation's completed tasks, as model turns (the latest ones). Failed
   * and canceled tasks are left out: their question got no answer, and an error message is not a
   * turn the model said.
   */
  private List<Turn> earlierTurns(String agent, String contextId) {
    List<Turn> turns = new ArrayList<>();
    for (Task task : store.context(agent, contextId)) {
      if (task.status().state() != TaskState.COMPLETED) {
        continue;
      }
      for (Message message : task.history()) {
        String text = MessageText.lenient(message);
        if (text.isBlank()) {
          continue;
        }
        turns.add(message.role() == Role.AGENT ? Turn.Model.text(text) : new Turn.User(text));
      }
    }
    return turns.size() > MAX_EARLIER_MESSAGES
        ? List.copyOf(turns.subList(turns.size() - MAX_EARLIER_MESSAGES, turns.size()))
        : turns;
  }

  private static String key(String agent, String taskId) {
    return agent + "\u0000" + taskId;
  }

  /** Cancels every running task and stops their threads (bounded wait). */
  @Override
  public void close() {
    for (TaskRun run : running.values()) {
      run.cancel();
    }
    threads.shutdownNow();
    try {
      threads.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

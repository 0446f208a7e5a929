package dev.svc.protocol.a2a;

import dev.svc.agent.AgentRunner;
import dev.svc.agent.Turn;
import dev.svc.auth.Principal;
import dev.svc.call.Caller;
import dev.svc.call.ClientText;
import dev.svc.log.Log;
import dev.svc.log.LogContext;
import dev.svc.model.Agent;
import dev.svc.project.Environment;
import dev.svc.ratelimit.RateLimiter;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.ServerFault;
import dev.svc.telemetry.Span;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.telemetry.Telemetry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps the books of tasks: a new user message becomes a task in its conversation (context), whose
 * agent runs ({@link AgentRunner}) on its own virtual thread and whose outcome becomes the task's
 * state. Keeps the tasks running in this process so they can be canceled and subscribed to;
 * everything else about tasks is in the {@link TaskStore}.
 */
final class AgentTasks implements AutoCloseable {
  private static final Log LOG = Log.tagged("a2a");

  /** How long a cancel waits for the instance running the task to confirm it. */
  static final Duration CANCEL_WAIT = Duration.ofSeconds(5);

  private final TaskStore store;
  private final Optional<SharedTasks> shared;
  private final PushNotifier push;
  private final Clock clock;
  private final AgentRunner runner;
  private final ConcurrentHashMap<String, TaskRun> running = new ConcurrentHashMap<>();

  /**
   * The estimated heap of what the running tasks hold from the start (the message, the earlier
   * turns read for the model), at most {@link #maxRunningBytes}: with a shared store, each run
   * reads its conversation anew, up to 50 messages of 4 MiB, so a client starting runs in a loop
   * could fill the heap where the store itself holds nothing here.
   */
  private final AtomicLong runningBytes = new AtomicLong();

  private final long maxRunningBytes = InMemoryTaskStore.defaultMaxBytes();
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final TaskChanges changes;
  private final ReceivedMessages received;
  private final RunSlots slots;
  private final AutoCloseable slotsGauge;

  AgentTasks(
      TaskStore store,
      PushNotifier push,
      Environment environment,
      Clock clock,
      RateLimiter limiter,
      RunSlots.Limits limits) {
    this.slots = new RunSlots(limits);
    this.slotsGauge =
        SvcMetrics.A2A_TASKS.register(sink -> {
          sink.sample(slots.running(), "running");
          sink.sample(slots.waiting(), "waiting");
        });
    this.store = store;
    this.shared = store.shared();
    this.push = push;
    this.runner = new AgentRunner(environment, limiter);
    this.clock = clock;
    this.received = new ReceivedMessages(store);
    this.changes = new TaskChanges(store, push, taskId -> threads.submit(() -> cancelHere(taskId)));
    // another instance asks to cancel a task: the one of this instance that runs it ends
    shared.ifPresent(s -> s.onCancelRequest(taskId -> threads.submit(() -> cancelHere(taskId))));
  }

  private void cancelHere(String taskId) {
    for (TaskRun run : running.values()) {
      if (run.id().equals(taskId)) {
        run.cancel();
      }
    }
  }

  TaskStore store() {
    return store;
  }

  /** The task as it is now: live when it runs here, else from the store. */
  Optional<Task> find(TaskStore.Scope scope, String taskId) {
    TaskRun run = running.get(key(scope, taskId));
    return run != null ? Optional.of(run.task()) : store.find(scope, taskId);
  }

  Optional<TaskRun> running(TaskStore.Scope scope, String taskId) {
    return Optional.ofNullable(running.get(key(scope, taskId)));
  }

  /** What a send begins: a new task, or the one an earlier send of the same message started. */
  sealed interface Begun permits Started, Resent {}

  /** A task just started, and a subscription to it taken before its agent began. */
  record Started(TaskRun run, TaskRun.Subscription subscription) implements Begun {}

  /**
   * The task an earlier send of the same message (same {@code messageId}, same principal) started,
   * as it is now ({@link ReceivedMessages}).
   *
   * @param run its run, when it runs in this process
   */
  record Resent(Task task, Optional<TaskRun> run) implements Begun {}

  /**
   * Starts a task for a user message, or answers a message received before with its task.
   *
   * @param principal who owns the task: only calls of the same principal see it, continue it or are
   *     shown its conversation
   * @param streaming whether the model's text is streamed into artifact chunks
   * @throws dev.svc.protocol.jsonrpc.JsonRpcException for a message that names an unknown or
   *     running task, carries parts the agent cannot read, or reuses the messageId of another
   */
  Begun start(
      Agent agent,
      Principal principal,
      ProjectRuntime runtime,
      Message message,
      SendConfiguration configuration,
      Caller caller,
      boolean streaming) {
    // admitted first, before the conversation is read from the store: a refusal costs nothing
    if (!slots.admit()) {
      throw new TooManyTasksException(
          "this instance runs "
              + slots.limits().running()
              + " tasks at once and "
              + slots.limits().waiting()
              + " more wait for a turn, its limits (agents.tasks.max_running and max_waiting);"
              + " retry when some have finished");
    }
    // what this start holds is given back when the run ends (execute), or here when it never starts
    long held = 0;
    boolean submitted = false;
    boolean claimed = false;
    boolean saved = false;
    TaskStore.Scope scope = new TaskStore.Scope(agent.name(), principal);
    String taskId = UUID.randomUUID().toString();
    try {
      String userText = MessageText.of(message);
      // claimed before the conversation is read: a retry costs one claim, and a second send while
      // the first is starting waits for it rather than starting another
      Optional<Task> earlier =
          received.claim(
              scope, message, taskId, id -> find(scope, id), id -> running(scope, id).isPresent());
      if (earlier.isPresent()) {
        return new Resent(earlier.get(), running(scope, earlier.get().id()));
      }
      claimed = true;
      String contextId = contextOf(scope, message);
      List<Turn> conversation = new ArrayList<>(ConversationTurns.earlier(store, scope, contextId));
      conversation.add(new Turn.User(userText));

      Task task =
          new Task(
              taskId,
              contextId,
              TaskStatus.of(TaskState.SUBMITTED, clock.instant()),
              List.of(),
              List.of(message.inTask(contextId, taskId)),
              Optional.empty());
      long weight = TaskWeight.of(task) + ConversationTurns.weight(conversation);
      if (runningBytes.addAndGet(weight) > maxRunningBytes) {
        runningBytes.addAndGet(-weight);
        throw new TaskStoreFullException(
            "the tasks running on this instance hold "
                + runningBytes.get() / (1024 * 1024)
                + " MiB of messages, its limit; retry when some have finished");
      }
      held = weight;
      changes.save(scope, task, 0);
      saved = true;
      try {
        configuration
            .pushConfig()
            .ifPresent(config ->
                store.savePushConfig(
                    scope,
                    config.withIds(
                        config.id().isEmpty() ? UUID.randomUUID().toString() : config.id(),
                        taskId)));
      } catch (TaskStoreFullException e) {
        // the in-memory store had room for the task but not its config: ended, so that it is not
        // kept submitted (and never dropped) without a run
        changes.save(
            scope,
            task.withStatus(
                new TaskStatus(
                    TaskState.FAILED,
                    Optional.of(Message.agent(e.getMessage(), contextId, taskId)),
                    clock.instant())),
            0);
        throw e;
      }
      TaskRun run = new TaskRun(agent.name(), task, clock, changes.of(scope, taskId));
      push.notify(store.pushConfigs(scope, taskId), task);
      running.put(key(scope, taskId), run);
      TaskRun.Subscription subscription = run.subscribe();
      Span parent = Telemetry.tracer().current();
      Caller agentCaller = caller.via("agent:" + agent.name());
      threads.execute(() ->
          ScopedValue.where(LogContext.REQUEST_ID, caller.requestId())
              .run(() ->
                  TaskTelemetry.traced(
                      runtime.observer(),
                      parent,
                      run,
                      agent,
                      principal,
                      agentCaller,
                      () ->
                          execute(
                              run,
                              scope,
                              agent,
                              runtime,
                              conversation,
                              agentCaller,
                              streaming,
                              weight))));
      submitted = true;
      return new Started(run, subscription);
    } finally {
      if (!submitted) {
        runningBytes.addAndGet(-held);
        slots.leave();
        if (claimed && !saved) {
          received.release(scope, message.messageId(), taskId);
        }
      }
    }
  }

  /** Runs the task's agent and moves the task to the state its outcome calls for. */
  private void execute(
      TaskRun run,
      TaskStore.Scope scope,
      Agent agent,
      ProjectRuntime runtime,
      List<Turn> conversation,
      Caller caller,
      boolean streaming,
      long weight) {
    long started = System.nanoTime();
    boolean turn = false;
    try {
      if (!run.runsOn(Thread.currentThread())) {
        return; // canceled before its thread began
      }
      // submitted until a turn is free (agents.tasks.max_running); a cancel interrupts the wait
      slots.awaitTurn();
      turn = true;
      if (!run.status(TaskState.WORKING, Optional.empty())) {
        return;
      }
      end(
          run,
          agent,
          runner.run(agent, runtime.tools(), conversation, caller, streaming, run::chunk),
          started);
    } catch (InterruptedException e) {
      // canceled while waiting for a turn (the cancel set the task's state), or the server stops
      fail(run, "the task was stopped before it finished");
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // the task's own bookkeeping failed (its store, say): told as a fault of the run is
      ServerFault fault = new ServerFault("internal error", caller.requestId());
      end(run, agent, new AgentRunner.Outcome.Faulted(fault, e), started);
    } finally {
      if (turn) {
        slots.endTurn();
      }
      slots.leave();
      running.remove(key(scope, run.id()), run);
      runningBytes.addAndGet(-weight);
    }
  }

  private static void end(TaskRun run, Agent agent, AgentRunner.Outcome outcome, long started) {
    switch (outcome) {
      case AgentRunner.Outcome.Answered answered -> {
        run.answer(answered.text());
        Task task = run.task();
        run.status(
            TaskState.COMPLETED,
            Optional.of(Message.agent(answered.text(), task.contextId(), task.id())));
        LOG.info(
            "task completed",
            "agent",
            agent.name(),
            "task",
            run.id(),
            "ms",
            (System.nanoTime() - started) / 1_000_000);
      }
      case AgentRunner.Outcome.Stopped stopped ->
          fail(run, "the task was stopped before it finished");
      case AgentRunner.Outcome.Failed failed -> {
        LOG.warn("task failed", "agent", agent.name(), "task", run.id(), "error", failed.message());
        fail(run, failed.message());
      }
      case AgentRunner.Outcome.Faulted faulted -> {
        LOG.error(
            "task failed unexpectedly", faulted.cause(), "agent", agent.name(), "task", run.id());
        fail(run, faulted.fault().text());
      }
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
  Task cancel(TaskStore.Scope scope, String taskId) {
    TaskRun run = running.get(key(scope, taskId));
    if (run != null) {
      if (!run.cancel()) {
        throw A2aErrors.taskNotCancelable(taskId, run.task().status().state());
      }
      return run.task();
    }
    if (shared.isPresent()) {
      return cancelShared(shared.get(), scope, taskId);
    }
    Task task = store.find(scope, taskId).orElseThrow(() -> A2aErrors.taskNotFound(taskId));
    if (task.status().state().isTerminal()) {
      throw A2aErrors.taskNotCancelable(taskId, task.status().state());
    }
    // A task the store holds as running but no thread of this process runs (another instance
    // of a shared store, or a crash): mark it canceled.
    Task canceled = task.withStatus(TaskStatus.of(TaskState.CANCELED, clock.instant()));
    store.save(scope, canceled);
    push.notify(store.pushConfigs(scope, taskId), canceled);
    return canceled;
  }

  /**
   * Cancels a task of a shared store that this instance does not run: asks the instance holding its
   * lease to cancel it and waits (at most {@link #CANCEL_WAIT}) until it is saved ended; a task
   * nobody holds (its instance died), or whose instance does not answer in time, is ended here.
   */
  private Task cancelShared(SharedTasks shared, TaskStore.Scope scope, String taskId) {
    SharedTasks.Snapshot snapshot =
        shared.snapshot(scope, taskId).orElseThrow(() -> A2aErrors.taskNotFound(taskId));
    if (snapshot.task().status().state().isTerminal()) {
      throw A2aErrors.taskNotCancelable(taskId, snapshot.task().status().state());
    }
    if (snapshot.leased()) {
      BlockingQueue<Boolean> changed = new LinkedBlockingQueue<>();
      SharedTasks.Listening listening = shared.listen(taskId, () -> changed.offer(true));
      try {
        shared.requestCancel(taskId);
        long deadline = System.nanoTime() + CANCEL_WAIT.toNanos();
        while (true) {
          Task task = store.find(scope, taskId).orElseThrow(() -> A2aErrors.taskNotFound(taskId));
          TaskState state = task.status().state();
          if (state == TaskState.CANCELED) {
            return task;
          }
          if (state.isTerminal()) {
            throw A2aErrors.taskNotCancelable(taskId, state);
          }
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            break;
          }
          changed.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)), TimeUnit.NANOSECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        listening.close();
      }
      LOG.warn(
          "the instance running a task did not confirm its cancel; it is canceled here",
          "task",
          taskId);
    }
    Optional<Task> ended =
        shared.end(scope, taskId, TaskStatus.of(TaskState.CANCELED, clock.instant()), false);
    if (ended.isPresent()) {
      push.notify(store.pushConfigs(scope, taskId), ended.get());
      return ended.get();
    }
    Task task = store.find(scope, taskId).orElseThrow(() -> A2aErrors.taskNotFound(taskId));
    if (task.status().state() == TaskState.CANCELED) {
      return task;
    }
    throw A2aErrors.taskNotCancelable(taskId, task.status().state());
  }

  /**
   * The conversation a message belongs to: its task's, its own, or a new one. A task of another
   * principal is not found; a contextId another principal also uses is a separate conversation (see
   * {@link ConversationTurns#earlier}).
   */
  private String contextOf(TaskStore.Scope scope, Message message) {
    if (message.taskId().isPresent()) {
      String taskId = message.taskId().get();
      Task earlier = find(scope, taskId).orElseThrow(() -> A2aErrors.taskNotFound(taskId));
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
                + ClientText.shown(message.contextId().get())
                + " does not match task "
                + taskId
                + ", whose contextId is "
                + earlier.contextId());
      }
      return earlier.contextId();
    }
    return message.contextId().orElseGet(() -> UUID.randomUUID().toString());
  }

  private static String key(TaskStore.Scope scope, String taskId) {
    return scope.agent() + "\u0000" + scope.principal().id() + "\u0000" + taskId;
  }

  /**
   * Waits, at most {@code limit}, until no task runs or waits for a turn on this instance: on
   * shutdown, a task sent with {@code returnImmediately} has no request in flight, and without this
   * wait the drain would cancel it at once however much of {@code drain_timeout} was left.
   *
   * @return how many tasks still run when the wait ends (0 when every one has ended)
   */
  int awaitIdle(Duration limit) {
    long end = System.nanoTime() + limit.toNanos();
    while (!running.isEmpty() && System.nanoTime() - end < 0) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return running.size();
  }

  /** Cancels every running task and stops their threads (bounded wait). */
  @Override
  public void close() {
    try {
      slotsGauge.close();
    } catch (Exception e) {
      LOG.debug("task gauge not unregistered", "error", e.getMessage());
    }
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5); // for both waits together
    StopCancels.cancelAll(List.copyOf(running.values()), Duration.ofSeconds(5));
    threads.shutdownNow();
    changes.close();
    try {
      threads.awaitTermination(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package dev.svc.script;

import dev.svc.call.Caller;
import dev.svc.call.Watchdog;
import dev.svc.json.Jackson;
import dev.svc.log.Log;
import dev.svc.log.LogContext;
import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs scripts on a bounded pool of isolates that grows with load.
 *
 * <p>A call runs in one of two places, and an isolate is only ever used by one thread at a time:
 *
 * <ul>
 *   <li><b>On its caller's thread</b> while one of {@link Settings#callerSlots()} is free, with a
 *       spare isolate (or a new one, within the cap). No hand-off to another thread and back, which
 *       costs more than a short script. A virtual thread inside V8 pins its carrier, so the slots
 *       stay below the carriers: endless loops on their way to their deadlines can never take every
 *       carrier, and the rest of the server keeps serving.
 *   <li><b>On a worker</b>, a platform thread that owns its isolate, when every caller slot is
 *       taken.
 * </ul>
 *
 * <p>Calls wait in one queue. A worker is added when a call waits, no worker is idle and fewer
 * workers are computing than there are CPU slots, up to {@link Settings#maxIsolates()}. Workers
 * that wait for a {@code fetch}, or whose call has run longer than {@link #LONG_CALL} (a heavy
 * computation, an endless loop on its way to its deadline), do not count as computing: so scripts
 * waiting on the network never starve the others, and neither does a runaway script, while short
 * CPU-bound calls queue for the cores they need instead of adding threads that would only take
 * turns. A waiting call re-checks this every {@link #LONG_CALL}, and waits no longer than its own
 * deadline: more calls than isolates slow down but never deadlock. Workers idle longer than {@link
 * Settings#idleTimeout()} stop, down to one. An isolate whose call hit the memory cap, the deadline
 * or a cancellation is closed and its worker makes a fresh one for its next call.
 *
 * <p>No isolate exists until the first call (or {@link #warmUp()}): V8 is never loaded for a
 * project without scripts.
 */
public final class PooledScriptRunner implements ScriptRunner {
  private static final Log LOG = Log.tagged("script");
  private static final JsonMapper JSON = Jackson.MAPPER;

  /** How long past its deadline a caller waits for its worker to report the timeout itself. */
  private static final Duration GRACE = Duration.ofSeconds(2);

  /** A call running longer than this no longer counts as holding a CPU slot. */
  static final Duration LONG_CALL = Duration.ofMillis(50);

  /**
   * Limits of callers waiting for their script, and the pool's growth check. Waits are untimed and
   * this watchdog ends them: a timed park of a virtual thread costs a JDK timer task per call.
   */
  private static final Watchdog WAITS =
      new Watchdog("svc-script-waits", Duration.ofMillis(10), Runnable::run);

  /**
   * How the pool behaves.
   *
   * @param maxIsolates most isolates (and worker threads) alive at once
   * @param cpuSlots workers computing at once before calls queue instead of adding workers
   * @param idleTimeout how long an idle worker (beyond the first) lives
   * @param warmUp whether {@link #warmUp()} creates the first isolate ahead of the first call
   */
  public record Settings(
      int maxIsolates, int cpuSlots, int callerSlots, Duration idleTimeout, boolean warmUp) {
    public Settings {
      if (maxIsolates < 1 || cpuSlots < 1 || callerSlots < 0) {
        throw new IllegalArgumentException(
            "at least one isolate and one CPU slot are needed, and no negative caller slots");
      }
    }

    /** One CPU slot per core, caller slots as {@link #defaultCallerSlots()}. */
    public Settings(int maxIsolates, Duration idleTimeout, boolean warmUp) {
      this(
          maxIsolates,
          Runtime.getRuntime().availableProcessors(),
          defaultCallerSlots(),
          idleTimeout,
          warmUp);
    }

    /**
     * One fewer than the virtual-thread scheduler has carrier threads (none with one carrier): a
     * call on its caller's thread holds that carrier until it returns, so at least one carrier is
     * always free to serve whatever else arrives, even while scripts run endless loops to their
     * deadlines.
     */
    public static int defaultCallerSlots() {
      int carriers =
          Integer.getInteger(
              "jdk.virtualThreadScheduler.parallelism", Runtime.getRuntime().availableProcessors());
      return Math.max(0, carriers - 1);
    }

    /**
     * Four isolates per core, at least eight (scripts waiting for fetch hold theirs), one CPU slot
     * per core, caller slots as {@link #defaultCallerSlots()}, idle workers kept a minute, the
     * first isolate warmed up.
     */
    public static Settings defaults() {
      int cores = Runtime.getRuntime().availableProcessors();
      return new Settings(
          Math.max(8, 4 * cores), cores, defaultCallerSlots(), Duration.ofSeconds(60), true);
    }

    /** The same settings with {@code callerSlots} calls at most on their callers' threads. */
    public Settings withCallerSlots(int slots) {
      return new Settings(maxIsolates, cpuSlots, slots, idleTimeout, warmUp);
    }
  }

  private final ScriptEngine engine;
  private final Scripts scripts;
  private final Settings settings;
  private final HttpFetch http = new HttpFetch();
  private final LinkedBlockingQueue<Job> queue = new LinkedBlockingQueue<>();
  private final AtomicInteger workers = new AtomicInteger();
  private final AtomicInteger idle = new AtomicInteger();
  private final AtomicInteger serial = new AtomicInteger();
  private final Set<Worker> live = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean growthCheckArmed = new AtomicBoolean(); // see checkGrowthLater

  /** Isolates of no worker, free for calls on their callers' threads; most recent first. */
  private final ConcurrentLinkedDeque<ScriptIsolate> spare = new ConcurrentLinkedDeque<>();

  /** Isolates alive or being made: the workers' and the callers'; at most the cap. */
  private final AtomicInteger isolates = new AtomicInteger();

  /** Isolates made for calls on their callers' threads (spare or in use). */
  private final AtomicInteger callerIsolates = new AtomicInteger();

  /** Calls computing on their callers' threads (not those waiting for a fetch). */
  private final AtomicInteger onCallers = new AtomicInteger();

  private volatile boolean closed;

  public PooledScriptRunner(ScriptEngine engine, Scripts scripts, Settings settings) {
    this.engine = engine;
    this.scripts = scripts;
    this.settings = settings;
  }

  /**
   * When {@link Settings#warmUp()} and there are scripts: makes the first isolate now, in the
   * background, so that the first call does not wait for V8 to load. Call it once serving starts.
   */
  public void warmUp() {
    if (!settings.warmUp() || scripts.isEmpty() || closed) {
      return;
    }
    if (settings.callerSlots() == 0) {
      if (workers.get() == 0 && reserveIsolate()) {
        workers.incrementAndGet();
        startWorker(true);
      }
      return;
    }
    if (callerIsolates.get() == 0 && reserveIsolate()) {
      callerIsolates.incrementAndGet();
      Thread.ofPlatform()
          .name("svc-script-warm-up")
          .daemon(true)
          .start(() -> {
            try {
              giveBack(create());
            } catch (RuntimeException e) {
              releaseCallerIsolate();
              LOG.debug("warming up an isolate failed", "error", e.toString());
            }
          });
    }
  }

  public Settings settings() {
    return settings;
  }

  @Override
  public Optional<Usage> usage() {
    int all = workers.get() + callerIsolates.get();
    int waiting = idle.get() + spare.size();
    return Optional.of(
        new Usage(Math.max(0, all - waiting), waiting, settings.maxIsolates(), queue.size()));
  }

  @Override
  public JsonNode call(ScriptRef script, JsonNode payload, String toolName, Duration timeout) {
    if (closed) {
      throw new IllegalStateException("the script runner is closed");
    }
    Optional<Caller> caller =
        Caller.CURRENT.isBound() ? Optional.of(Caller.CURRENT.get()) : Optional.empty();
    long deadline = System.nanoTime() + timeout.toNanos();
    CallHost host = new CallHost(toolName, caller, deadline, http);
    ScriptCall call =
        new ScriptCall(script, JSON.writeValueAsString(payload), toolName, timeout, deadline, host);
    ScriptIsolate own = takeCallerSlot();
    if (own != null) {
      String result =
          caller.isPresent() && !LogContext.REQUEST_ID.isBound()
              ? ScopedValue.where(LogContext.REQUEST_ID, caller.get().requestId())
                  .call(() -> runOnCaller(own, call, host))
              : runOnCaller(own, call, host);
      return JSON.readTree(result);
    }
    Job job = new Job(call, host, caller);
    queue.add(job);
    grow();
    checkGrowthLater();
    String result = job.await();
    return JSON.readTree(result);
  }

  /**
   * A caller slot and an isolate to use on the caller's thread, or null when every slot is taken
   * (or the isolate cap is reached): the call then goes to the workers' queue. A slot taken here is
   * given back by {@link #runOnCaller}.
   */
  private ScriptIsolate takeCallerSlot() {
    if (settings.callerSlots() == 0) {
      return null;
    }
    if (onCallers.incrementAndGet() <= settings.callerSlots()) {
      ScriptIsolate isolate = spare.pollFirst();
      if (isolate != null) {
        return isolate;
      }
      if (reserveIsolate()) {
        callerIsolates.incrementAndGet();
        try {
          return create();
        } catch (RuntimeException e) {
          releaseCallerIsolate();
          LOG.debug("cannot make an isolate on the caller's thread", "error", e.toString());
        }
      }
    }
    onCallers.decrementAndGet();
    return null;
  }

  /** Counts one more isolate (a worker's or a caller's), unless the cap is reached. */
  private boolean reserveIsolate() {
    while (true) {
      int n = isolates.get();
      if (n >= settings.maxIsolates()) {
        return false;
      }
      if (isolates.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  private void releaseCallerIsolate() {
    callerIsolates.decrementAndGet();
    isolates.decrementAndGet();
  }

  /**
   * Runs a call on the caller's own (virtual) thread: no hand-off to a worker and back, which costs
   * more than a short script itself. The caller's carrier is held while V8 computes, which is what
   * the slots bound; the deadline, memory cap and cancellation end the call as on a worker.
   */
  private String runOnCaller(ScriptIsolate isolate, ScriptCall call, CallHost host) {
    SlotWhileWaiting slot = new SlotWhileWaiting();
    host.onWait(slot);
    ScriptIsolate keep = isolate;
    try {
      return callLoggingStack(isolate, call);
    } catch (ScriptFailedException e) {
      throw e; // the script's own failure: the isolate says itself whether it stays usable
    } catch (RuntimeException e) { // the engine failed: the isolate is not used again
      isolate.close();
      keep = null;
      throw e;
    } finally {
      slot.release();
      if (keep != null && keep.isReusable() && !workersStarved()) {
        giveBack(keep);
      } else {
        close(keep);
        releaseCallerIsolate();
        grow();
      }
    }
  }

  /** Runs the call; a script that threw leaves its stack in the debug log (not in the result). */
  private static String callLoggingStack(ScriptIsolate isolate, ScriptCall call) {
    try {
      return isolate.call(call);
    } catch (ScriptFailedException e) {
      e.scriptStack()
          .ifPresent(stack ->
              LOG.child(call.tool())
                  .debug("script failed", "error", e.getMessage(), "stack", stack));
      throw e;
    }
  }

  /**
   * Whether calls wait in the queue with no idle worker and no room for another: the caller then
   * closes its isolate instead of keeping it spare, so that a worker can take its place.
   */
  private boolean workersStarved() {
    return !queue.isEmpty() && idle.get() == 0 && isolates.get() >= settings.maxIsolates();
  }

  /**
   * A call on its caller's thread holds a caller slot, except while it waits for its fetches: it
   * computes nothing then, so the slot serves other calls meanwhile.
   */
  private final class SlotWhileWaiting implements CallHost.WaitListener {
    private boolean waiting; // only the caller's thread reads and writes it

    @Override
    public void waiting(boolean now) {
      if (now != waiting) {
        waiting = now;
        if (now) {
          onCallers.decrementAndGet();
        } else {
          onCallers.incrementAndGet();
        }
      }
    }

    /** Gives the slot back at the end of the call (unless a wait already did). */
    void release() {
      if (!waiting) {
        onCallers.decrementAndGet();
      }
      waiting = true;
    }
  }

  /** Makes a caller isolate spare again; closes it when the runner closed meanwhile. */
  private void giveBack(ScriptIsolate isolate) {
    spare.addFirst(isolate);
    if (closed && spare.remove(isolate)) {
      close(isolate);
      releaseCallerIsolate();
    }
  }

  /**
   * Adds a worker when a call waits, none is idle and a CPU slot is free, up to the cap; at the
   * cap, a spare caller isolate makes room for it.
   */
  private void grow() {
    if (idle.get() != 0 || queue.isEmpty() || closed) {
      return;
    }
    if (workers.get() > 0 && computing() >= settings.cpuSlots()) {
      return;
    }
    if (!reserveIsolate()) {
      ScriptIsolate unused = spare.pollLast();
      if (unused == null) {
        return;
      }
      close(unused);
      releaseCallerIsolate();
      if (!reserveIsolate()) {
        return;
      }
    }
    workers.incrementAndGet();
    startWorker(false);
  }

  /**
   * While calls are queued, looks again every {@link #LONG_CALL}: running calls may have become
   * long ones meanwhile, which frees their CPU slot for a new worker.
   */
  private void checkGrowthLater() {
    if (growthCheckArmed.compareAndSet(false, true)) {
      WAITS.arm(
          System.nanoTime() + LONG_CALL.toNanos(),
          Optional.empty(),
          () -> {
            growthCheckArmed.set(false);
            if (!closed && !queue.isEmpty()) {
              grow();
              checkGrowthLater();
            }
          });
    }
  }

  /** Workers running a call that started recently and is not waiting for a fetch. */
  private int computing() {
    long now = System.nanoTime();
    int computing = 0;
    for (Worker worker : live) {
      long since = worker.busySince;
      if (since != 0 && !worker.waiting && now - since < LONG_CALL.toNanos()) {
        computing++;
      }
    }
    return computing;
  }

  private void startWorker(boolean warm) {
    Worker worker = new Worker();
    live.add(worker);
    Thread.ofPlatform()
        .name("svc-script-" + serial.incrementAndGet())
        .daemon(true)
        .stackSize(4L * 1024 * 1024)
        .start(() -> worker.work(warm));
  }

  /** A platform thread and the isolate it owns. */
  private final class Worker {
    /** {@link System#nanoTime()} when the current call started; 0 while idle. */
    volatile long busySince;

    /** Whether the current call waits for a fetch (and uses no CPU). */
    volatile boolean waiting;

    volatile Thread thread;

    void work(boolean warm) {
      thread = Thread.currentThread();
      ScriptIsolate isolate = null;
      boolean counted = true;
      try {
        if (warm) {
          isolate = create();
        }
        while (!closed) {
          Job job;
          idle.incrementAndGet();
          try {
            job = queue.poll(settings.idleTimeout().toMillis(), TimeUnit.MILLISECONDS);
          } finally {
            idle.decrementAndGet();
          }
          if (job == null) {
            int n = workers.get();
            if (n > 1 && queue.isEmpty() && workers.compareAndSet(n, n - 1)) {
              isolates.decrementAndGet();
              counted = false;
              return;
            }
            continue;
          }
          busySince = System.nanoTime();
          try {
            isolate = run(job, isolate, this);
          } finally {
            busySince = 0;
            waiting = false;
          }
        }
      } catch (InterruptedException e) {
        // the runner is closing
      } catch (RuntimeException e) {
        LOG.error("a script worker failed", e);
      } finally {
        close(isolate);
        live.remove(this);
        if (counted) {
          workers.decrementAndGet();
          isolates.decrementAndGet();
        }
        if (!closed) {
          grow(); // a call queued while this worker was leaving must not be left without one
        }
      }
    }
  }

  /** Runs one job; returns the isolate to keep (null when it must be replaced). */
  private ScriptIsolate run(Job job, ScriptIsolate isolate, Worker worker) {
    if (!job.begin()) {
      return isolate; // timed out or cancelled while queued
    }
    ScriptIsolate current = isolate;
    try {
      if (current == null) {
        current = create();
      }
      job.running.set(current);
      job.host.onWait(waiting -> worker.waiting = waiting);
      ScriptIsolate using = current;
      String result = bound(job, () -> callLoggingStack(using, job.call));
      job.result.complete(result);
    } catch (ScriptFailedException e) {
      job.result.completeExceptionally(e);
    } catch (RuntimeException e) {
      job.result.completeExceptionally(e);
      if (current != null) {
        close(current);
        current = null;
      }
    } finally {
      job.running.set(null);
    }
    if (current != null && !current.isReusable()) {
      close(current);
      return null;
    }
    return current;
  }

  /** Runs {@code work} with the caller and request id bound, as on the caller's own thread. */
  private static String bound(Job job, java.util.function.Supplier<String> work) {
    if (job.caller.isEmpty()) {
      return work.get();
    }
    Caller caller = job.caller.get();
    return ScopedValue.where(Caller.CURRENT, caller)
        .where(LogContext.REQUEST_ID, caller.requestId())
        .call(work::get);
  }

  private ScriptIsolate create() {
    long started = System.nanoTime();
    ScriptIsolate isolate = engine.newIsolate(scripts);
    LOG.debug(
        "isolate ready",
        "ms",
        (System.nanoTime() - started) / 1_000_000,
        "isolates",
        workers.get());
    return isolate;
  }

  private static void close(ScriptIsolate isolate) {
    if (isolate != null) {
      isolate.close();
    }
  }

  /** Stops every worker; calls still queued fail. Never throws. */
  @Override
  public void close() {
    closed = true;
    for (Worker worker : live) {
      Thread thread = worker.thread;
      if (thread != null) {
        thread.interrupt();
      }
    }
    for (Worker worker : live) {
      Thread thread = worker.thread;
      try {
        if (thread != null) {
          thread.join(Duration.ofSeconds(5));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    Job job;
    while ((job = queue.poll()) != null) {
      job.result.completeExceptionally(new IllegalStateException("the server is stopping"));
    }
    ScriptIsolate isolate;
    while ((isolate = spare.pollFirst()) != null) {
      close(isolate);
      releaseCallerIsolate();
    }
  }

  /** A call waiting for or running on an isolate. */
  private final class Job {
    final ScriptCall call;
    final CallHost host;
    final Optional<Caller> caller;
    final CompletableFuture<String> result = new CompletableFuture<>();
    final AtomicReference<ScriptIsolate> running = new AtomicReference<>();
    private final AtomicInteger state = new AtomicInteger(); // 0 queued, 1 running, 2 abandoned

    Job(ScriptCall call, CallHost host, Optional<Caller> caller) {
      this.call = call;
      this.host = host;
      this.caller = caller;
    }

    /** Claims the job for a worker; false when its caller gave up or its deadline passed. */
    boolean begin() {
      if (call.remainingNanos() <= 0) {
        if (state.compareAndSet(0, 2)) {
          result.completeExceptionally(new ScriptTimeoutException(call.timeout()));
        }
        return false;
      }
      return state.compareAndSet(0, 1);
    }

    /** Waits for the outcome: the deadline plus a grace for the worker to report it. */
    String await() {
      long end = System.nanoTime() + call.remainingNanos() + GRACE.toNanos();
      Watchdog.Armed limit =
          WAITS.arm(end, Optional.empty(), () -> result.completeExceptionally(new WaitLimit()));
      try {
        return result.get();
      } catch (ExecutionException e) {
        if (e.getCause() instanceof WaitLimit) {
          abandon();
          throw new ScriptTimeoutException(call.timeout());
        }
        if (e.getCause() instanceof RuntimeException failure) {
          throw failure;
        }
        throw new IllegalStateException(e.getCause());
      } catch (InterruptedException e) {
        abandon();
        Thread.currentThread().interrupt();
        throw new ScriptFailedException("the call was cancelled");
      } finally {
        limit.close();
      }
    }

    private void abandon() {
      if (!state.compareAndSet(0, 2)) {
        ScriptIsolate isolate = running.get();
        if (isolate != null) {
          isolate.interrupt(call);
        }
      }
    }
  }

  /** The caller's wait reached the deadline plus the grace: the worker never reported. */
  private static final class WaitLimit extends Exception {
    private static final long serialVersionUID = 1L;

    WaitLimit() {
      super(null, null, false, false);
    }
  }
}

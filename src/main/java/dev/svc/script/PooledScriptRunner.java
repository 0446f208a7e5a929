package dev.svc.script;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.call.Watchdog;
import dev.svc.json.Jackson;
import dev.svc.log.Log;
import dev.svc.log.LogContext;
import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs scripts on a pool of isolates that grows with load, within a memory ceiling.
 *
 * <p>A call runs in one of two places, and an isolate is only ever used by one thread at a time:
 *
 * <ul>
 *   <li><b>On its caller's thread</b> while one of {@link Settings#callerSlots()} is free, with a
 *       spare isolate (or a new one, within the limits below), when the script's last call ended
 *       quickly ({@link RunningCalls#endedQuickly}). No hand-off to another thread and back, which
 *       costs more than a short script. A virtual thread inside V8 pins its carrier, so the slots
 *       stay below the carriers, and a script not known to be quick (its first call, or one whose
 *       last call ran long: an endless loop) goes to a worker instead of pinning a carrier until
 *       its deadline.
 *   <li><b>On a worker</b>, a platform thread that owns its isolate, otherwise.
 * </ul>
 *
 * <p>Calls wait in one queue. A worker is added when a call waits, no worker is idle and fewer
 * workers are computing than there are CPU slots. Workers that wait for a {@code fetch}, or whose
 * call is a {@linkplain RunningCalls#LONG_CALL long call} (a heavy computation, an endless loop on
 * its way to its deadline), do not count as computing: so scripts waiting on the network never
 * starve the others, and neither does a runaway script, while short CPU-bound calls queue for the
 * cores they need instead of adding threads that would only take turns. A waiting call re-checks
 * this every {@link RunningCalls#LONG_CALL}, and waits no longer than its own deadline: more calls
 * than isolates slow down but never deadlock.
 *
 * <p>Three limits keep the isolates bounded without letting slow scripts hold up quick ones:
 *
 * <ul>
 *   <li>{@link Settings#maxIsolates()} counts the isolates that are idle or run a short call; long
 *       calls leave that count, so a call arriving while every isolate is held by long calls gets a
 *       new isolate;
 *   <li>{@link ToolShares}: one tool's calls hold at most its share of the isolates at once, so a
 *       tool whose calls never return cannot take the whole ceiling;
 *   <li>{@link ScriptMemory}: all isolates of the process, times their heap cap, stay within the
 *       memory ceiling, whatever the two rules above allow.
 * </ul>
 *
 * <p>Workers idle longer than {@link Settings#idleTimeout()} stop, down to one; a worker or caller
 * isolate beyond {@link Settings#maxIsolates()} short or idle ones stops as soon as its call ends.
 * An isolate whose call hit the memory cap, the deadline or a cancellation is closed and its worker
 * makes a fresh one for its next call.
 *
 * <p>No isolate exists until the first call (or {@link #warmUp()}): V8 is never loaded for a
 * project without scripts.
 */
public final class PooledScriptRunner implements ScriptRunner {
  private static final Log LOG = Log.tagged("script");
  private static final JsonMapper JSON = Jackson.MAPPER;

  /**
   * How often an idle worker looks whether it should stop: its runner retired, or calls on their
   * callers' threads found no room for an isolate while it idled with one.
   */
  private static final Duration IDLE_CHECK = Duration.ofSeconds(1);

  /**
   * Limits of callers waiting for their script, and the pool's growth check. Waits are untimed and
   * this watchdog ends them: a timed park of a virtual thread costs a JDK timer task per call.
   */
  private static final Watchdog WAITS =
      new Watchdog("svc-script-waits", Duration.ofMillis(10), Runnable::run);

  /**
   * How the pool behaves.
   *
   * @param maxIsolates most isolates alive at once that are idle or run short calls (long calls do
   *     not count), and the most isolates the calls of one tool hold at once
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
  private final ScriptMemory memory;
  private final ToolShares shares;
  private final RunningCalls running = new RunningCalls();

  /** The isolates alive or being made, the workers' and the callers', and their limits. */
  private final IsolateLimits limits;

  private final HttpFetch http = new HttpFetch();
  private final LinkedBlockingQueue<QueuedCall> queue = new LinkedBlockingQueue<>();
  private final AtomicInteger workers = new AtomicInteger();
  private final AtomicInteger idle = new AtomicInteger();
  private final AtomicInteger serial = new AtomicInteger();
  private final Set<Worker> live = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean growthCheckArmed = new AtomicBoolean(); // see checkGrowthLater

  /** Isolates of no worker, free for calls on their callers' threads; most recent first. */
  private final ConcurrentLinkedDeque<ScriptIsolate> spare = new ConcurrentLinkedDeque<>();

  /** Isolates made for calls on their callers' threads (spare or in use). */
  private final AtomicInteger callerIsolates = new AtomicInteger();

  /** Calls computing on their callers' threads (not those waiting for a fetch). */
  private final AtomicInteger onCallers = new AtomicInteger();

  private volatile boolean closed;

  /**
   * Set when a call could not run on its caller's thread because idle workers hold the isolates the
   * limits allow: the next idle worker to look stops, so that the callers' path gets room again.
   */
  private volatile boolean callersWantRoom;

  /** Set by {@link #retire()}: isolates are closed as soon as they are idle. */
  private volatile boolean retiring;

  /** A runner with a memory ceiling of its own, sized from the machine for the default heap. */
  public PooledScriptRunner(ScriptEngine engine, Scripts scripts, Settings settings) {
    this(
        engine,
        scripts,
        settings,
        new ScriptMemory(
            ScriptMemory.defaultLimitMb(V8Engine.DEFAULT_HEAP_MB), V8Engine.DEFAULT_HEAP_MB));
  }

  /**
   * @param memory the ceiling this runner's isolates count against, shared with the other runners
   *     of the process
   */
  public PooledScriptRunner(
      ScriptEngine engine, Scripts scripts, Settings settings, ScriptMemory memory) {
    this.engine = engine;
    this.scripts = scripts;
    this.settings = settings;
    this.memory = memory;
    this.shares = ToolShares.of(settings.maxIsolates(), memory);
    this.limits = new IsolateLimits(settings.maxIsolates(), memory, running);
  }

  /**
   * When {@link Settings#warmUp()} and there are scripts: makes the first isolate now, in the
   * background, so that the first call does not wait for V8 to load. Call it once serving starts.
   */
  public void warmUp() {
    if (!settings.warmUp() || scripts.isEmpty() || closed || retiring) {
      return;
    }
    if (settings.callerSlots() == 0) {
      if (workers.get() == 0 && limits.tryReserve()) {
        workers.incrementAndGet();
        startWorker(Optional.empty(), true);
      }
      return;
    }
    if (callerIsolates.get() == 0 && limits.tryReserve()) {
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

  /** The isolates one tool's calls may hold at once. */
  public int toolShare() {
    return shares.share();
  }

  /**
   * Another runner serves from now on (the project reloaded): this one keeps serving the calls that
   * still reach it, but closes its isolates as soon as they are idle, so that their memory returns
   * to the ceiling the runners share, then {@link #close()} ends it.
   */
  public void retire() {
    retiring = true;
    ScriptIsolate isolate;
    while ((isolate = spare.pollFirst()) != null) {
      close(isolate);
      releaseCallerIsolate();
    }
  }

  @Override
  public Optional<Usage> usage() {
    int all = workers.get() + callerIsolates.get();
    int waiting = idle.get() + spare.size();
    return Optional.of(
        new Usage(
            Math.max(0, all - waiting),
            waiting,
            settings.maxIsolates(),
            queue.size() + shares.waiting(),
            memory.reservedBytes(),
            memory.limitBytes()));
  }

  @Override
  public JsonNode call(
      ScriptRef script, JsonNode payload, String toolName, Deadline deadline, Caller caller) {
    if (closed) {
      throw new IllegalStateException("the script runner is closed");
    }
    CallHost host = new CallHost(toolName, caller, deadline, http);
    ScriptCall call =
        new ScriptCall(script, JSON.writeValueAsString(payload), toolName, deadline, host);
    shares.enter(call);
    try {
      if (closed) { // while the call waited for its tool's share
        throw new IllegalStateException("the script runner is closed");
      }
      return JSON.readTree(run(call, host, caller));
    } finally {
      shares.leave(call);
    }
  }

  /**
   * Runs a call on its caller's thread when a caller slot is free and the script's last call ended
   * quickly, else on a worker.
   */
  private String run(ScriptCall call, CallHost host, Caller caller) {
    ScriptIsolate own = running.endedQuickly(call.script()) ? takeCallerSlot() : null;
    if (own != null) {
      return !LogContext.REQUEST_ID.isBound()
          ? ScopedValue.where(LogContext.REQUEST_ID, caller.requestId())
              .call(() -> runOnCaller(own, call, host))
          : runOnCaller(own, call, host);
    }
    QueuedCall job = new QueuedCall(call, host, caller, limits::whyNoRoom);
    queue.add(job);
    grow();
    checkGrowthLater();
    return job.await(WAITS);
  }

  /**
   * A caller slot and an isolate to use on the caller's thread, or null when every slot is taken
   * (or no isolate may be made): the call then goes to the workers' queue. A slot taken here is
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
      if (limits.tryReserve()) {
        callerIsolates.incrementAndGet();
        try {
          return create();
        } catch (RuntimeException e) {
          releaseCallerIsolate();
          LOG.debug("cannot make an isolate on the caller's thread", "error", e.toString());
        }
      }
      if (idle.get() > 0) {
        callersWantRoom = true; // idle workers hold the isolates: one of them stops to make room
      }
    }
    onCallers.decrementAndGet();
    return null;
  }

  private void releaseCallerIsolate() {
    callerIsolates.decrementAndGet();
    limits.release();
  }

  /**
   * Runs a call on the caller's own (virtual) thread: no hand-off to a worker and back, which costs
   * more than a short script itself. The caller's carrier is held while V8 computes, which is what
   * the slots bound; the deadline, memory cap and cancellation end the call as on a worker.
   */
  private String runOnCaller(ScriptIsolate isolate, ScriptCall call, CallHost host) {
    SlotWhileWaiting slot = new SlotWhileWaiting();
    host.onWait(slot);
    RunningCalls.Run run = running.start(call.script(), false);
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
      running.end(run);
      slot.release();
      if (keep != null && keep.isReusable() && !workersStarved() && !limits.beyondShortCalls()) {
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
    return !queue.isEmpty() && idle.get() == 0 && !limits.hasRoom();
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

  /** Makes a caller isolate spare again; closes it when the runner closed or retired meanwhile. */
  private void giveBack(ScriptIsolate isolate) {
    spare.addFirst(isolate);
    if ((closed || retiring) && spare.remove(isolate)) {
      close(isolate);
      releaseCallerIsolate();
    }
  }

  /**
   * Adds a worker when a call waits, none is idle and a CPU slot is free, within the limits of
   * {@link IsolateLimits#tryReserve()}; when they are reached, a spare caller isolate makes room
   * for it.
   */
  private void grow() {
    if (idle.get() != 0 || queue.isEmpty() || closed) {
      return;
    }
    if (workers.get() > 0 && running.computingOnWorkers() >= settings.cpuSlots()) {
      return;
    }
    // the first worker takes over the warmed-up isolate, if it is spare; at the limits, any spare
    ScriptIsolate adopted = workers.get() == 0 ? spare.pollLast() : null;
    if (adopted == null && !limits.tryReserve()) {
      adopted = spare.pollLast();
      if (adopted == null) {
        return;
      }
    }
    if (adopted != null) {
      callerIsolates.decrementAndGet(); // still counted by the limits, now as the worker's
    }
    workers.incrementAndGet();
    startWorker(Optional.ofNullable(adopted), false);
  }

  /**
   * While calls are queued, looks again every {@link RunningCalls#LONG_CALL}: running calls may
   * have become long ones meanwhile, which frees their CPU slot and their place among the short
   * calls for a new worker, and another runner may have given memory back to the ceiling.
   */
  private void checkGrowthLater() {
    if (growthCheckArmed.compareAndSet(false, true)) {
      WAITS.arm(
          System.nanoTime() + RunningCalls.LONG_CALL.toNanos(),
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

  /**
   * Starts a worker with {@code adopted} as its isolate, or none until its first call ({@code
   * warm}: made at once).
   */
  private void startWorker(Optional<ScriptIsolate> adopted, boolean warm) {
    Worker worker = new Worker();
    live.add(worker);
    Thread.ofPlatform()
        .name("svc-script-" + serial.incrementAndGet())
        .daemon(true)
        .stackSize(4L * 1024 * 1024)
        .start(() -> worker.work(adopted, warm));
  }

  /** A platform thread and the isolate it owns. */
  private final class Worker {
    volatile Thread thread;

    void work(Optional<ScriptIsolate> adopted, boolean warm) {
      thread = Thread.currentThread();
      ScriptIsolate isolate = adopted.orElse(null);
      boolean counted = true;
      try {
        if (isolate == null && warm) {
          isolate = create();
        }
        long idleSince = System.nanoTime();
        long poll = Math.min(settings.idleTimeout().toMillis(), IDLE_CHECK.toMillis());
        while (!closed) {
          QueuedCall job;
          idle.incrementAndGet();
          try {
            job = queue.poll(poll, TimeUnit.MILLISECONDS);
          } finally {
            idle.decrementAndGet();
          }
          if (job == null) {
            boolean expired =
                System.nanoTime() - idleSince >= settings.idleTimeout().toNanos()
                    || callersWantRoom;
            if ((retiring || expired) && stopWorker(retiring ? 0 : 1)) {
              callersWantRoom = false;
              counted = false;
              return;
            }
            continue;
          }
          isolate = run(job, isolate);
          idleSince = System.nanoTime();
          if ((retiring || limits.beyondShortCalls()) && stopWorker(0)) {
            counted = false;
            return;
          }
          if (callersWantRoom && stopWorker(1)) {
            callersWantRoom = false;
            counted = false;
            return;
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
          limits.release();
        }
        if (!closed) {
          grow(); // a call queued while this worker was leaving must not be left without one
        }
      }
    }
  }

  /**
   * Counts one worker fewer when more than {@code keep} are left and no call waits; false when the
   * worker must go on. The caller closes its isolate.
   */
  private boolean stopWorker(int keep) {
    int n = workers.get();
    if (n > keep && queue.isEmpty() && workers.compareAndSet(n, n - 1)) {
      limits.release();
      return true;
    }
    return false;
  }

  /** Runs one job; returns the isolate to keep (null when it must be replaced). */
  private ScriptIsolate run(QueuedCall job, ScriptIsolate isolate) {
    if (!job.begin()) {
      return isolate; // timed out or cancelled while queued
    }
    ScriptIsolate current = isolate;
    RunningCalls.Run run = null;
    try {
      if (current == null) {
        current = create();
      }
      run = running.start(job.call.script(), true); // making the isolate is not the script's time
      job.running.set(current);
      job.host.onWait(run);
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
      if (run != null) {
        running.end(run);
      }
    }
    if (current != null && !current.isReusable()) {
      close(current);
      return null;
    }
    return current;
  }

  /** Runs {@code work} with the request id bound, as on the caller's own thread. */
  private static String bound(QueuedCall job, java.util.function.Supplier<String> work) {
    return ScopedValue.where(LogContext.REQUEST_ID, job.caller.requestId()).call(work::get);
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
    QueuedCall job;
    while ((job = queue.poll()) != null) {
      job.result.completeExceptionally(new IllegalStateException("the server is stopping"));
    }
    ScriptIsolate isolate;
    while ((isolate = spare.pollFirst()) != null) {
      close(isolate);
      releaseCallerIsolate();
    }
  }
}

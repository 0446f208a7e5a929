package dev.svc.script;

import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.json.Jackson;
import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import dev.svc.net.AddressPolicy;
import java.time.Duration;
import java.util.Optional;
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
 *       its deadline ({@link CallerSlots}).
 *   <li><b>On a worker</b>, a platform thread that owns its isolate, otherwise ({@link
 *       WorkerPool}).
 * </ul>
 *
 * <p>Isolates made on callers' threads are kept spare between calls ({@link SpareIsolates}); a new
 * worker may adopt one. This class keeps what both paths share: the tool shares, the limits and the
 * lifecycle (warm-up, retirement, closing).
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
 * <p>Isolates idle longer than {@link Settings#idleTimeout()} are closed, the last one included (a
 * project whose scripts rest holds no V8 memory; the next call makes an isolate again): idle
 * workers stop and spare isolates of the callers' path close. A worker or caller isolate beyond
 * {@link Settings#maxIsolates()} short or idle ones stops as soon as its call ends. An isolate
 * whose call hit the memory cap, the deadline or a cancellation is closed and its worker makes a
 * fresh one for its next call.
 *
 * <p>No isolate exists until the first call (or {@link #warmUp()}): V8 is never loaded for a
 * project without scripts.
 */
public final class PooledScriptRunner implements ScriptRunner {
  private static final JsonMapper JSON = Jackson.MAPPER;

  /**
   * How the pool behaves.
   *
   * @param maxIsolates most isolates alive at once that are idle or run short calls (calls running
   *     long or waiting for a fetch do not count)
   * @param cpuSlots workers computing at once before calls queue instead of adding workers
   * @param idleTimeout how long an isolate is kept while no call uses it
   * @param warmUp whether {@link #warmUp()} creates the first isolate ahead of the first call
   * @param toolShare the most isolates the calls of one tool hold at once
   * @param fetchNetworks where scripts' {@code fetch} may connect ({@code scripts.fetch})
   */
  public record Settings(
      int maxIsolates,
      int cpuSlots,
      int callerSlots,
      Duration idleTimeout,
      boolean warmUp,
      int toolShare,
      AddressPolicy fetchNetworks) {
    public Settings {
      if (maxIsolates < 1 || cpuSlots < 1 || callerSlots < 0 || toolShare < 1) {
        throw new IllegalArgumentException(
            "at least one isolate, one CPU slot and a tool share of one are needed, and no"
                + " negative caller slots");
      }
    }

    /** Fetches of public addresses only ({@code scripts.fetch} unset). */
    public Settings(
        int maxIsolates,
        int cpuSlots,
        int callerSlots,
        Duration idleTimeout,
        boolean warmUp,
        int toolShare) {
      this(
          maxIsolates,
          cpuSlots,
          callerSlots,
          idleTimeout,
          warmUp,
          toolShare,
          AddressPolicy.PUBLIC_ONLY);
    }

    /** A tool's share as large as {@code maxIsolates}. */
    public Settings(
        int maxIsolates, int cpuSlots, int callerSlots, Duration idleTimeout, boolean warmUp) {
      this(maxIsolates, cpuSlots, callerSlots, idleTimeout, warmUp, maxIsolates);
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

    /** How long an isolate is kept while no call uses it, unless set otherwise. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);

    /**
     * {@link #defaultIsolates()} idle or running short calls (calls waiting for a fetch or running
     * long get isolates beyond them), one CPU slot per core, caller slots as {@link
     * #defaultCallerSlots()}, idle isolates kept a minute, the first isolate warmed up, and a
     * tool's share of four isolates per core, at least eight.
     */
    public static Settings defaults() {
      int cores = Runtime.getRuntime().availableProcessors();
      return new Settings(
          defaultIsolates(),
          cores,
          defaultCallerSlots(),
          DEFAULT_IDLE_TIMEOUT,
          true,
          Math.max(8, 4 * cores));
    }

    /**
     * As many isolates for short calls as the pool lets compute at once: one per core for the
     * workers ({@link #cpuSlots()}) and one per {@linkplain #defaultCallerSlots() caller slot}, at
     * least two. Short calls are CPU-bound, so more would only take turns on the cores while each
     * holds its memory (7–20 MB); calls waiting for a fetch or running long get isolates beyond
     * these.
     */
    public static int defaultIsolates() {
      return Math.max(2, Runtime.getRuntime().availableProcessors() + defaultCallerSlots());
    }

    /** The same settings with {@code callerSlots} calls at most on their callers' threads. */
    public Settings withCallerSlots(int slots) {
      return new Settings(
          maxIsolates, cpuSlots, slots, idleTimeout, warmUp, toolShare, fetchNetworks);
    }

    /** The same settings with scripts' {@code fetch} reaching what {@code networks} allows. */
    public Settings withFetchNetworks(AddressPolicy networks) {
      return new Settings(
          maxIsolates, cpuSlots, callerSlots, idleTimeout, warmUp, toolShare, networks);
    }
  }

  private final Scripts scripts;
  private final ScriptEngine engine;
  private final Settings settings;
  private final ScriptMemory memory;
  private final ToolShares shares;

  private final HttpFetch http;
  private final SpareIsolates spares;
  private final WorkerPool workers;
  private final CallerSlots callers;

  /** The thread that closes idle spare isolates; null without scripts. */
  private final Thread idleCheck;

  private volatile boolean closed;

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
    this.http = new HttpFetch(settings.fetchNetworks());
    this.shares = ToolShares.of(settings.toolShare(), memory);
    RunningCalls running = new RunningCalls();
    IsolateLimits limits = new IsolateLimits(settings.maxIsolates(), memory, running);
    this.spares = new SpareIsolates(limits);
    Isolates isolates = new Isolates(engine, scripts, limits, running, spares);
    this.workers = new WorkerPool(settings, isolates);
    this.callers = new CallerSlots(settings, isolates, workers);
    this.idleCheck =
        scripts.isEmpty()
            ? null
            : Thread.ofVirtual().name("svc-script-idle").start(this::closeIdleSpares);
  }

  /**
   * Closes the callers' spare isolates once idle for {@link Settings#idleTimeout()}, looking every
   * half timeout (at most every 5 s), until the runner closes.
   */
  private void closeIdleSpares() {
    long every = Math.clamp(settings.idleTimeout().toMillis() / 2, 10, 5_000);
    try {
      while (!closed) {
        Thread.sleep(every);
        spares.closeIdle(settings.idleTimeout().toNanos());
      }
    } catch (InterruptedException e) {
      // the runner is closing
    }
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
      workers.warmUp();
    } else {
      callers.warmUp();
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
    workers.retire();
    spares.stop();
    http.retire();
  }

  @Override
  public Optional<Usage> usage() {
    WorkerPool.Counts pool = workers.counts();
    int all = pool.workers() + spares.made();
    int waiting = pool.idle() + spares.spare();
    return Optional.of(
        new Usage(
            Math.max(0, all - waiting),
            waiting,
            settings.maxIsolates(),
            pool.queued() + shares.waiting(),
            memory.reservedBytes(),
            memory.limitBytes(),
            engine.memoryUsedBytes()));
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
      ScriptIsolate own = callers.take(call);
      return ScriptResults.read(
          own != null ? callers.run(own, call, host, caller) : workers.run(call, host, caller));
    } finally {
      shares.leave(call);
    }
  }

  /** Stops every worker; calls still queued fail. Never throws. */
  @Override
  public void close() {
    closed = true;
    if (idleCheck != null) {
      idleCheck.interrupt();
    }
    workers.close();
    spares.stop();
    http.close();
  }
}

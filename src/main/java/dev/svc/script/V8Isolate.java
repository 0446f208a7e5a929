package dev.svc.script;

import com.caoccao.javet.exceptions.JavetException;
import com.caoccao.javet.exceptions.JavetTerminatedException;
import com.caoccao.javet.interop.V8Host;
import com.caoccao.javet.interop.V8Runtime;
import com.caoccao.javet.interop.V8ScriptOrigin;
import com.caoccao.javet.interop.monitoring.V8HeapStatistics;
import com.caoccao.javet.values.V8Value;
import com.caoccao.javet.values.primitive.V8ValueString;
import com.caoccao.javet.values.reference.V8ValueFunction;
import com.caoccao.javet.values.reference.V8ValueObject;
import dev.svc.call.Watchdog;
import dev.svc.connector.ResultMemory;
import dev.svc.json.Jackson;
import dev.svc.json.LoneSurrogates;
import dev.svc.log.Log;
import dev.svc.model.ScriptBundle;
import dev.svc.model.ScriptRef;
import dev.svc.model.Scripts;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One V8 isolate with the svc sandbox ({@code sandbox.js}) installed, serving calls one at a time
 * on the thread that created it.
 *
 * <p>A call runs the bundle's top level afresh, calls the export and, while the returned promise is
 * pending, pumps: it waits for the next finished {@code fetch} (started on the host's threads) and
 * settles its promise on this thread, until the call's promise settles. So a {@code Promise.all} of
 * two fetches takes about as long as one, and the isolate is never touched by another thread.
 *
 * <p>A {@link Watchdog} ends JavaScript running at the deadline (up to {@value #TICK_MILLIS} ms
 * late; Javet's own {@code V8Guard} woke its thread on every call); a near-heap-limit callback ends
 * a call that reaches the heap cap, before V8 would abort the process. Either way the isolate is no
 * longer {@link #isReusable() reusable}: its {@link State} says why. ArrayBuffer memory, which V8
 * allocates outside its heap and does not cap, is counted per call inside the isolate ({@code
 * buffers.js}): a call may allocate as many bytes of it as the heap cap, no more.
 */
final class V8Isolate implements ScriptIsolate {
  private static final Log LOG = Log.tagged("script");

  /**
   * What a call answers, before it ran any code of its own, when an earlier call left the isolate
   * unfit ({@code reset} in {@code sandbox.js}, which every call runs first).
   */
  private static final String SPOILED = "s";

  private static final JsonMapper JSON = Jackson.MAPPER;
  private static final String SANDBOX = resource("sandbox.js");
  private static final String BUFFERS = resource("buffers.js");
  private static final String LENGTHS = resource("lengths.js");
  private static final String[] MODULE_PARAMETERS = {"module", "exports", "require"};

  static final long TICK_MILLIS = 10;

  /**
   * The longest JSON a call may hand back, in characters: as many as the ceiling of one result
   * ({@link ResultMemory}) has bytes. Longer JSON is refused inside the isolate, before it is
   * copied into the JVM's heap; shorter JSON is then counted as a tree ({@link ScriptResults}).
   */
  private static final int MAX_RESULT_CHARS =
      (int) Math.min(ResultMemory.process().ceilingBytes(), Integer.MAX_VALUE);

  /**
   * Terminates scripts past their deadline: {@code terminateExecution} is quick and thread-safe.
   */
  private static final Watchdog DEADLINES =
      new Watchdog("svc-script-deadlines", Duration.ofMillis(TICK_MILLIS), Runnable::run);

  private final V8Runtime runtime;
  private final Scripts scripts;
  private final long heapBytes;
  private final List<V8Value> owned = new ArrayList<>();
  private final Map<String, V8ValueFunction> factories = new HashMap<>();

  /** Per script and export: {@code (payload) => invoke(factory, export, payload)}, made once. */
  private final Map<ScriptRef, V8ValueFunction> entries = new HashMap<>();

  private V8ValueFunction bind;
  private V8ValueFunction poll;
  private V8ValueFunction settle;
  private final AtomicReference<State> state = new AtomicReference<>(State.USABLE);
  private final HostFunctions functions;
  private final IsolateHeaps heap = new IsolateHeaps();

  private final IsolateGarbage garbage = new IsolateGarbage();

  /** Set on the isolate's thread by {@link #nearHeapLimit}; read by {@link #close} on it too. */
  private boolean overdrawn;

  /** How often V8 asked for room again after the call was ended at the cap (its thread only). */
  private int roomsAgain;

  private final AtomicBoolean holdsOverdraft = new AtomicBoolean();

  /**
   * Whether the isolate can serve another call and, when not, why. A call may end for several
   * reasons at once (the heap cap reached while its caller gives up); the later constant wins, as
   * it says best what the caller is told.
   */
  private enum State {
    USABLE,
    /** Stopped at its deadline, or the engine failed: V8 may hold a termination for later. */
    STOPPED,
    /** Its caller gave up on the call ({@link #interrupt}). */
    CANCELLED,
    /** The call reached the heap cap. */
    OUT_OF_MEMORY
  }

  /** Orders a call's end against {@link #interrupt}: a termination never reaches the next call. */
  private final Object lock = new Object();

  private V8Isolate(V8Runtime runtime, Scripts scripts, int heapMb) {
    this.runtime = runtime;
    this.scripts = scripts;
    this.heapBytes = heapMb * 1024L * 1024L;
    this.functions = new HostFunctions(runtime);
  }

  static V8Isolate create(V8Host host, Scripts scripts, int heapMb) {
    V8Runtime runtime;
    try {
      runtime = host.createV8Runtime();
    } catch (JavetException e) {
      throw new ScriptEngineException("cannot create a V8 isolate: " + e.getMessage(), e);
    }
    V8Isolate isolate = new V8Isolate(runtime, scripts, heapMb);
    try {
      isolate.install();
      isolate.measureHeap();
      return isolate;
    } catch (JavetException | RuntimeException e) {
      isolate.close();
      if (e instanceof ScriptEngineException failure) {
        throw failure;
      }
      throw new ScriptEngineException("cannot set up the script sandbox: " + e.getMessage(), e);
    }
  }

  private void install() throws JavetException {
    runtime.setLogger(JavetDebugLog.INSTANCE);
    runtime.setPromiseRejectCallback((event, promise, value) -> {});
    runtime.allowEval(false);
    runtime.setNearHeapLimitCallback(this::nearHeapLimit);
    runtime.getExecutor(LENGTHS).setResourceName("svc:lengths.js").executeVoid();
    try (V8ValueObject host = runtime.createV8ValueObject();
        V8ValueFunction buffers =
            runtime.getExecutor(BUFFERS).setResourceName("svc:buffers.js").execute();
        V8ValueFunction startBufferCount = buffers.call(null, (double) heapBytes);
        V8ValueFunction bootstrap =
            runtime.getExecutor(SANDBOX).setResourceName("svc:sandbox.js").execute()) {
      functions.addTo(host);
      V8Value vendor =
          scripts.vendor().isPresent()
              ? own(compile("svc:vendor.js", scripts.vendor().get()))
              : runtime.createV8ValueNull();
      V8ValueObject internals;
      try {
        internals =
            bootstrap.call(
                null,
                host,
                vendor,
                MAX_RESULT_CHARS,
                HttpFetch.MAX_REQUEST_CHARS,
                startBufferCount);
      } catch (JavetException e) {
        throw new ScriptEngineException(
            (scripts.vendor().isPresent()
                    ? "loading the npm packages (vendor bundle) failed: "
                    : "the script sandbox failed to start: ")
                + e.getMessage(),
            e);
      }
      try (internals) {
        bind = own(internals.get("bind"));
        poll = own(internals.get("poll"));
        settle = own(internals.get("settle"));
      }
    }
  }

  @Override
  public String call(ScriptCall call) {
    V8ValueFunction entry = entry(call.script());
    long millis = TimeUnit.NANOSECONDS.toMillis(call.deadline().remainingNanos());
    if (millis <= 0) {
      throw new ScriptTimeoutException(call.deadline().timeout());
    }
    RunningCall current = new RunningCall(call);
    functions.running(current);
    // the deadline, or an interrupt of the thread running the call (its request was cancelled)
    Thread runner = Thread.currentThread();
    Watchdog.Armed deadline =
        DEADLINES.arm(
            call.deadline().nanos(),
            Optional.of(runner),
            () -> {
              if (runner.isInterrupted()) {
                interrupt(call);
              } else {
                runtime.terminateExecution();
              }
            });
    try {
      try (deadline) {
        String outcome = text(entry.call(null, call.payload()));
        if (SPOILED.equals(outcome)) {
          end(State.STOPPED);
          throw new SpoiledIsolateException();
        }
        while (outcome == null) {
          outcome = text(poll.call(null));
          if (outcome != null) {
            break;
          }
          if (current.awaitsNothing()) {
            if (current.waitsForNextRound()) {
              throw new ScriptWaitsForClientException();
            }
            throw new ScriptFailedException(
                "the script's promise never settled: it waits for something that never happens");
          }
          call.host().waiting(true);
          Optional<RunningCall.Finished> next;
          try {
            next = current.next(call.deadline().remainingNanos());
          } finally {
            call.host().waiting(false);
          }
          if (next.isEmpty()) {
            end(State.STOPPED);
            throw new ScriptTimeoutException(call.deadline().timeout());
          }
          if (next.get() == RunningCall.Finished.INTERRUPTED) {
            end(State.STOPPED);
            throw new ScriptFailedException("the call was cancelled");
          }
          settle.callVoid(null, next.get().id(), next.get().json());
        }
        if (state.get() == State.OUT_OF_MEMORY) {
          // a builtin that crossed the cap returned before V8 checked for the termination
          throw stoppedFailure(call);
        }
        return decode(outcome);
      }
    } catch (JavetTerminatedException e) {
      end(State.STOPPED);
      throw stoppedFailure(call);
    } catch (JavetException e) {
      end(State.STOPPED);
      State now = state.get();
      if (now == State.OUT_OF_MEMORY || now == State.CANCELLED) { // terminated on purpose
        throw stoppedFailure(call);
      }
      throw new ScriptEngineException("the script engine failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      end(State.STOPPED);
      throw new ScriptFailedException("the call was cancelled");
    } finally {
      synchronized (lock) {
        functions.running(null);
      }
      current.abandon();
      // If the deadline fired just as the script returned, V8 keeps the termination pending for
      // the next JavaScript it runs: an isolate whose deadline fired is not used again.
      if (deadline.fired()) {
        end(State.STOPPED);
      }
      measureHeap();
    }
  }

  /**
   * Updates this isolate's share of the script memory gauge, at most once a second, after a call:
   * V8 answers on this thread while the isolate is idle. An isolate holding as much more as {@link
   * IsolateGarbage} allows collects all its garbage first (a few ms, on the thread of the call that
   * just ended; at most once a second).
   */
  private void measureHeap() {
    if (!isReusable() || !heap.due(System.nanoTime())) {
      return;
    }
    try {
      long held = heldBytes();
      if (held < 0) { // not answered at once: the gauge takes it when V8 answers
        runtime.getV8HeapStatistics().thenAccept(s -> heap.measured(bytesOf(s)));
        return;
      }
      if (garbage.due(held)) {
        long started = System.nanoTime();
        runtime.lowMemoryNotification();
        long after = heldBytes();
        LOG.debug(
            "isolate garbage collected",
            "kb_before",
            held / 1024,
            "kb_after",
            after / 1024,
            "ms",
            (System.nanoTime() - started) / 1_000_000);
        if (after >= 0) {
          held = after;
          garbage.collected(after);
        }
      }
      heap.measured(held);
    } catch (RuntimeException e) {
      LOG.debug("measuring a V8 heap failed", "error", e.toString());
    }
  }

  /** What V8 holds for this isolate now, or -1 when it does not answer at once. */
  private long heldBytes() {
    long[] held = {-1};
    runtime.getV8HeapStatistics().thenAccept(s -> held[0] = bytesOf(s));
    return held[0];
  }

  /** The physical pages of the heap's spaces, and what V8 allocated with malloc beside them. */
  private static long bytesOf(V8HeapStatistics statistics) {
    return statistics.getTotalPhysicalSize() + statistics.getMallocedMemory();
  }

  /** What the caller of a call that V8 terminated is told. */
  private ScriptFailedException stoppedFailure(ScriptCall call) {
    return switch (state.get()) {
      case OUT_OF_MEMORY -> new ScriptFailedException("the script exceeded its memory limit");
      case CANCELLED -> new ScriptFailedException("the call was cancelled");
      case USABLE, STOPPED -> new ScriptTimeoutException(call.deadline().timeout());
    };
  }

  /** {@code "v" + json} is a value, {@code "x" + {message, stack}} something thrown. */
  private static String decode(String outcome) {
    if (outcome.startsWith("v")) {
      return outcome.substring(1);
    }
    JsonNode thrown = LoneSurrogates.mended(JSON.readTree(outcome.substring(1)));
    throw new ScriptFailedException(
        thrown.path("message").asString("the script failed"), thrown.path("stack").asString(""));
  }

  private static String text(V8Value value) throws JavetException {
    try (value) {
      return value instanceof V8ValueString string ? string.getValue() : null;
    }
  }

  /**
   * The function a call of {@code script} enters: bound once, so that a call passes V8 one
   * argument, not three (0.6 of 2.2 µs per call of a one-line handler, in a loop).
   */
  private V8ValueFunction entry(ScriptRef script) {
    V8ValueFunction entry = entries.get(script);
    if (entry == null) {
      V8ValueFunction factory = factory(script.path());
      try {
        entry = own(bind.call(null, factory, script.exportName()));
      } catch (JavetException e) {
        throw new ScriptEngineException("cannot prepare the script " + script, e);
      }
      entries.put(script, entry);
    }
    return entry;
  }

  private V8ValueFunction factory(String path) {
    V8ValueFunction factory = factories.get(path);
    if (factory == null) {
      ScriptBundle bundle =
          scripts
              .bundle(path)
              .orElseThrow(() -> new IllegalStateException("no bundle for script " + path));
      try {
        factory = own(compile(path, bundle.code()));
      } catch (JavetException e) {
        throw new ScriptEngineException("cannot compile the bundle of " + path, e);
      }
      factories.put(path, factory);
    }
    return factory;
  }

  /** The bundle as {@code function (module, exports, require) { code }}, compiled once. */
  private V8ValueFunction compile(String name, String code) throws JavetException {
    return runtime.compileV8ValueFunction(
        code, null, new V8ScriptOrigin(name), MODULE_PARAMETERS, null);
  }

  /**
   * V8 calls this after a full collection left the heap over its limit, and before the last try of
   * an allocation that did not fit ({@link HeapOverdrafts}): the call is terminated, and V8 gets
   * room for the largest object it allocates at once, so that no single allocation ends the
   * process. Termination lands at V8's next interrupt check; the isolate is closed after the call.
   */
  private long nearHeapLimit(long current, long initial) {
    end(State.OUT_OF_MEMORY);
    runtime.terminateExecution();
    if (!overdrawn) {
      overdrawn = true;
      holdsOverdraft.set(HeapOverdrafts.process().take());
    } else if (++roomsAgain == 1) {
      // terminated, yet V8 asks again: one built-in step that never looks for the termination
      // (docs/scripts.md, Limits: `for…in` over a huge typed array) goes on until it is done, and
      // each refusal would end the process; the operator should learn which tool it was
      RunningCall running = functions.running();
      LOG.warn(
          "a script call past its heap cap goes on inside one step of V8 that does not stop for"
              + " it; its isolate is given more memory until the step ends",
          "tool",
          running == null ? "" : running.call().tool(),
          "heap_mb",
          current / (1024 * 1024));
    }
    return current + HeapOverdrafts.roomBytes(heapBytes);
  }

  @Override
  public boolean isReusable() {
    return state.get() == State.USABLE;
  }

  /** The isolate is not used again, for {@code reason} unless a later state says more. */
  private void end(State reason) {
    state.accumulateAndGet(reason, (now, next) -> next.compareTo(now) > 0 ? next : now);
  }

  @Override
  public void interrupt(ScriptCall call) {
    synchronized (lock) {
      RunningCall current = functions.running();
      if (current == null || current.call() != call) {
        return;
      }
      end(State.CANCELLED);
      runtime.terminateExecution();
      current.interrupt();
    }
  }

  @Override
  public void close() {
    heap.close();
    for (V8Value value : owned) {
      try {
        value.close();
      } catch (JavetException | RuntimeException e) {
        // closing the runtime below frees it anyway
      }
    }
    owned.clear();
    factories.clear();
    entries.clear();
    functions.close();
    try {
      runtime.close();
    } catch (JavetException | RuntimeException e) {
      LOG.debug("closing a V8 isolate failed", "error", e.toString());
    }
    if (holdsOverdraft.getAndSet(false)) {
      HeapOverdrafts.process().release();
    }
  }

  private <T extends V8Value> T own(T value) {
    owned.add(value);
    return value;
  }

  private static String resource(String name) {
    try (InputStream in = V8Isolate.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

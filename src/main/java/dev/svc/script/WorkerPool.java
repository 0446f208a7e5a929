package dev.svc.script;

import dev.svc.call.Caller;
import dev.svc.call.Watchdog;
import dev.svc.log.Log;
import dev.svc.log.LogContext;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The workers of a {@link PooledScriptRunner}: platform threads that each own an isolate and take
 * calls from one queue. A worker is added when a call waits, no worker is idle and fewer workers
 * are computing than there are CPU slots ({@link RunningCalls#computingOnWorkers()}); while calls
 * wait, that is looked at again every {@link RunningCalls#LONG_CALL}. Workers idle longer than the
 * idle timeout stop, the last one too (the next call starts a new one); a worker beyond the limit
 * of short or idle isolates stops as soon as its call ends, and when calls on their callers'
 * threads need room a worker stops (down to one) once idle for a second, or after its call at most
 * once a second, and leaves its isolate to that path.
 */
final class WorkerPool {
  private static final Log LOG = Log.tagged("script");

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

  private final PooledScriptRunner.Settings settings;
  private final Isolates isolates;

  private final LinkedBlockingQueue<QueuedCall> queue = new LinkedBlockingQueue<>();
  private final AtomicInteger workers = new AtomicInteger();
  private final AtomicInteger idle = new AtomicInteger();
  private final AtomicInteger serial = new AtomicInteger();
  private final Set<Worker> live = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean growthCheckArmed = new AtomicBoolean(); // see checkGrowthLater

  /** When a worker last stopped for the callers right after a call ({@link System#nanoTime()}). */
  private final AtomicLong lastStopForCallers = new AtomicLong(System.nanoTime());

  private volatile boolean closed;

  /**
   * Set when a call could not run on its caller's thread because idle workers hold the isolates the
   * limits allow: the next idle worker to look stops, so that the callers' path gets room again.
   */
  private volatile boolean callersWantRoom;

  /** Set by {@link #retire()}: isolates are closed as soon as they are idle. */
  private volatile boolean retiring;

  WorkerPool(PooledScriptRunner.Settings settings, Isolates isolates) {
    this.settings = settings;
    this.isolates = isolates;
  }

  /** Queues the call for a worker and waits for its result, no longer than its deadline allows. */
  String run(ScriptCall call, CallHost host, Caller caller) {
    QueuedCall job = new QueuedCall(call, host, caller, isolates.limits()::whyNoRoom);
    queue.add(job);
    grow();
    checkGrowthLater();
    return job.await(WAITS);
  }

  /** Starts the first worker with an isolate made at once (when every call goes to a worker). */
  void warmUp() {
    if (workers.get() == 0 && isolates.limits().tryReserve()) {
      workers.incrementAndGet();
      startWorker(Optional.empty(), true);
    }
  }

  /**
   * Whether calls wait in the queue with no idle worker and no room for another, while there are
   * fewer workers than CPU slots: a caller then hands its isolate to a new worker instead of
   * keeping it for the next caller. With a worker per CPU slot, handing it over would only move the
   * wait, and the two paths would trade isolates back and forth.
   */
  boolean starved() {
    return !queue.isEmpty()
        && idle.get() == 0
        && !isolates.limits().hasRoom()
        && workers.get() < settings.cpuSlots();
  }

  /**
   * A call found no room on its caller's thread: a worker idle for {@link #IDLE_CHECK}, or one that
   * just finished a call, stops to make room; the latter at most once per {@link #IDLE_CHECK}
   * ({@link #stopForCallersNow()}), so that under load the two paths do not trade isolates back and
   * forth with every call. The worker leaves its isolate to the callers ({@link #leaveForCallers}).
   */
  void makeRoomForCallers() {
    if (idle.get() > 0) {
      callersWantRoom = true;
    }
  }

  /** Whether a worker that just finished a call may stop for the callers now (once a second). */
  private boolean stopForCallersNow() {
    long now = System.nanoTime();
    long last = lastStopForCallers.get();
    return now - last >= IDLE_CHECK.toNanos() && lastStopForCallers.compareAndSet(last, now);
  }

  /**
   * The pool's figures now.
   *
   * @param workers the workers alive
   * @param idle those waiting for a call
   * @param queued the calls waiting for a worker
   */
  record Counts(int workers, int idle, int queued) {}

  Counts counts() {
    return new Counts(workers.get(), idle.get(), queue.size());
  }

  /**
   * Adds a worker when a call waits, none is idle and a CPU slot is free, within the limits of
   * {@link IsolateLimits#tryReserve()}; when they are reached and there are fewer workers than CPU
   * slots, a spare caller isolate makes room for it.
   */
  void grow() {
    if (idle.get() != 0 || queue.isEmpty() || closed) {
      return;
    }
    if (workers.get() > 0 && isolates.running().computingOnWorkers() >= settings.cpuSlots()) {
      return;
    }
    // the first worker takes over the warmed-up isolate, if it is spare; at the limits, any spare
    Optional<ScriptIsolate> adopted =
        workers.get() == 0 ? isolates.spares().adopt() : Optional.empty();
    if (adopted.isEmpty() && !isolates.limits().tryReserve()) {
      if (workers.get() >= settings.cpuSlots()) {
        return; // a worker per CPU slot already: taking the callers' spare would only move the wait
      }
      adopted = isolates.spares().adopt(); // still counted by the limits, now as the worker's
      if (adopted.isEmpty()) {
        return;
      }
    }
    workers.incrementAndGet();
    startWorker(adopted, false);
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
          isolate = isolates.create();
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
            // idle too long, every worker stops, the last one too: no isolate is held while no
            // script runs (a new worker comes with the next call); to make room for callers, one
            // worker stays
            boolean idleTooLong = System.nanoTime() - idleSince >= settings.idleTimeout().toNanos();
            if ((retiring || idleTooLong) && stopWorker(0)) {
              counted = false;
              return;
            }
            if (callersWantRoom && leaveForCallers(isolate)) {
              callersWantRoom = false;
              isolate = null; // the callers' now
              counted = false;
              return;
            }
            continue;
          }
          isolate = run(job, isolate);
          idleSince = System.nanoTime();
          if ((retiring || isolates.limits().beyondShortCalls()) && stopWorker(0)) {
            counted = false;
            return;
          }
          if (callersWantRoom && stopForCallersNow() && leaveForCallers(isolate)) {
            callersWantRoom = false;
            isolate = null; // the callers' now
            counted = false;
            return;
          }
        }
      } catch (InterruptedException e) {
        // the runner is closing
      } catch (RuntimeException e) {
        LOG.error("a script worker failed", e);
      } finally {
        Isolates.close(isolate);
        live.remove(this);
        if (counted) {
          workers.decrementAndGet();
          isolates.limits().release();
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
      isolates.limits().release();
      return true;
    }
    return false;
  }

  /**
   * Stops a worker for the callers' path, down to one worker and only while no call waits, and
   * hands its isolate to that path as a spare one, still counted by the limits: making a new one
   * there would cost ~10 ms of CPU and V8's compilations of the scripts again, and the worker's
   * isolate would be closed for nothing. False when the worker must go on.
   */
  private boolean leaveForCallers(ScriptIsolate isolate) {
    int n = workers.get();
    if (n <= 1 || !queue.isEmpty() || !workers.compareAndSet(n, n - 1)) {
      return false;
    }
    if (isolate != null && isolate.isReusable()) {
      isolates.spares().counted();
      isolates.spares().giveBack(isolate);
    } else {
      Isolates.close(isolate);
      isolates.limits().release();
    }
    return true;
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
        current = isolates.create();
      }
      // making the isolate is not the script's time
      run = isolates.running().start(job.call.script(), true);
      job.running.set(current);
      job.host.onWait(run);
      String result;
      try {
        result = runOn(current, job);
      } catch (SpoiledIsolateException e) { // nothing of the call ran: again, on a fresh isolate
        current.close();
        current = null;
        current = isolates.create();
        job.running.set(current);
        result = runOn(current, job);
      }
      job.result.complete(result);
    } catch (ScriptFailedException e) {
      job.result.completeExceptionally(e);
    } catch (RuntimeException e) {
      job.result.completeExceptionally(e);
      if (current != null) {
        current.close();
        current = null;
      }
    } finally {
      job.running.set(null);
      if (run != null) {
        isolates.running().end(run);
      }
    }
    if (current != null && !current.isReusable()) {
      current.close();
      return null;
    }
    return current;
  }

  /** The call on the isolate, its request id going with the call's log lines as on its caller's. */
  private static String runOn(ScriptIsolate isolate, QueuedCall job) {
    return ScopedValue.where(LogContext.REQUEST_ID, job.caller.requestId())
        .call(() -> Isolates.call(isolate, job.call));
  }

  /** A retired runner's workers stop as soon as they are idle. */
  void retire() {
    retiring = true;
  }

  /** Stops every worker; calls still queued fail. Never throws. */
  void close() {
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
  }
}

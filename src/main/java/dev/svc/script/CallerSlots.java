package dev.svc.script;

import dev.svc.call.Caller;
import dev.svc.log.Log;
import dev.svc.log.LogContext;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The path of calls that run on their caller's own (virtual) thread: no hand-off to a worker and
 * back, which costs more than a short script itself. A call takes this path while one of the slots
 * is free and its script's last call ended quickly ({@link RunningCalls#endedQuickly}). A virtual
 * thread inside V8 pins its carrier, so the slots stay below the carriers, and a script not known
 * to be quick goes to a worker instead of pinning a carrier until its deadline. The deadline,
 * memory cap and cancellation end a call here as on a worker.
 */
final class CallerSlots {
  private static final Log LOG = Log.tagged("script");

  /** How many calls may compute on their callers' threads at once. */
  private final int slots;

  private final Isolates isolates;

  /** Where calls go that find no slot, and what gets an isolate this path closes. */
  private final WorkerPool workers;

  /** Calls computing on their callers' threads (not those waiting for a fetch). */
  private final AtomicInteger onCallers = new AtomicInteger();

  CallerSlots(PooledScriptRunner.Settings settings, Isolates isolates, WorkerPool workers) {
    this.slots = settings.callerSlots();
    this.isolates = isolates;
    this.workers = workers;
  }

  /**
   * A slot and an isolate to run {@code call} on its caller's thread: a spare isolate, or a new one
   * within the limits. Null when the script is not known to be quick, every slot is taken or no
   * isolate may be made: the call then goes to the workers (null, not an empty optional: this runs
   * on every call). A slot taken here is given back by {@link #run}.
   */
  ScriptIsolate take(ScriptCall call) {
    if (slots == 0 || !isolates.running().endedQuickly(call.script())) {
      return null;
    }
    if (onCallers.incrementAndGet() <= slots) {
      ScriptIsolate spare = isolates.spares().take();
      if (spare != null) {
        return spare;
      }
      if (isolates.limits().tryReserve()) {
        isolates.spares().counted();
        try {
          return isolates.create();
        } catch (RuntimeException e) {
          isolates.spares().release();
          LOG.debug("cannot make an isolate on the caller's thread", "error", e.toString());
        }
      }
      workers.makeRoomForCallers(); // idle workers hold the isolates: one of them stops
    }
    onCallers.decrementAndGet();
    return null;
  }

  /**
   * Runs a call on the caller's thread, with the isolate and slot {@link #take} gave it, the
   * request id bound for its log lines. The caller's carrier is held while V8 computes, which is
   * what the slots bound.
   */
  String run(ScriptIsolate isolate, ScriptCall call, CallHost host, Caller caller) {
    return LogContext.REQUEST_ID.isBound()
        ? runOnCaller(isolate, call, host)
        : ScopedValue.where(LogContext.REQUEST_ID, caller.requestId())
            .call(() -> runOnCaller(isolate, call, host));
  }

  private String runOnCaller(ScriptIsolate isolate, ScriptCall call, CallHost host) {
    SlotWhileWaiting slot = new SlotWhileWaiting();
    host.onWait(slot);
    RunningCalls.Run run = isolates.running().start(call.script(), false);
    ScriptIsolate keep = isolate;
    try {
      try {
        return Isolates.call(keep, call);
      } catch (SpoiledIsolateException e) { // nothing of the call ran: again, on a fresh isolate
        keep.close();
        keep = null;
        keep = isolates.create();
        return Isolates.call(keep, call);
      }
    } catch (ScriptFailedException e) {
      throw e; // the script's own failure: the isolate says itself whether it stays usable
    } catch (RuntimeException e) { // the engine failed: the isolate is not used again
      Isolates.close(keep);
      keep = null;
      throw e;
    } finally {
      isolates.running().end(run);
      slot.release();
      if (keep != null && keep.isReusable() && !isolates.limits().beyondShortCalls()) {
        isolates.spares().giveBack(keep);
        if (workers.starved()) {
          workers.grow(); // a new worker adopts the isolate just given back
        }
      } else {
        Isolates.close(keep);
        isolates.spares().release();
        workers.grow();
      }
    }
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

  /**
   * Makes the first isolate for callers in the background, so that the first call does not wait for
   * V8 to load.
   */
  void warmUp() {
    if (isolates.spares().made() == 0 && isolates.limits().tryReserve()) {
      isolates.spares().counted();
      Thread.ofPlatform()
          .name("svc-script-warm-up")
          .daemon(true)
          .start(() -> {
            try {
              isolates.spares().giveBack(isolates.create());
            } catch (RuntimeException e) {
              isolates.spares().release();
              LOG.debug("warming up an isolate failed", "error", e.toString());
            }
          });
    }
  }
}

package dev.svc.script;

import dev.svc.call.Caller;
import dev.svc.call.Watchdog;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A call handed to the pool's workers: queued until a worker takes it, then running on that
 * worker's isolate while its caller waits. The caller waits no longer than the deadline for a
 * worker to take the call, and past it a grace for the worker running it to report its timeout.
 */
final class QueuedCall {
  /** How long past its deadline a caller waits for its worker to report the timeout itself. */
  private static final Duration GRACE = Duration.ofSeconds(2);

  private static final int QUEUED = 0;
  private static final int RUNNING = 1;
  private static final int ABANDONED = 2;

  final ScriptCall call;
  final CallHost host;
  final Caller caller;
  final CompletableFuture<String> result = new CompletableFuture<>();

  /** The isolate running the call, while it runs: its caller may have to stop it. */
  final AtomicReference<ScriptIsolate> running = new AtomicReference<>();

  private final AtomicInteger state = new AtomicInteger(QUEUED);
  private final Supplier<String> whyNotStarted;

  /**
   * @param whyNotStarted why no worker took the call, asked when its deadline passes first
   */
  QueuedCall(ScriptCall call, CallHost host, Caller caller, Supplier<String> whyNotStarted) {
    this.call = call;
    this.host = host;
    this.caller = caller;
    this.whyNotStarted = whyNotStarted;
  }

  /** Claims the call for a worker; false when its caller gave up or its deadline passed. */
  boolean begin() {
    if (call.deadline().passed()) {
      giveUpUnstarted();
      return false;
    }
    return state.compareAndSet(QUEUED, RUNNING);
  }

  /** At the deadline, a call no worker has taken fails at once: it never started. */
  private void giveUpUnstarted() {
    if (state.compareAndSet(QUEUED, ABANDONED)) {
      result.completeExceptionally(notStarted());
    }
  }

  private ScriptTimeoutException notStarted() {
    return ScriptTimeoutException.notStarted(call.deadline().timeout(), whyNotStarted.get());
  }

  /** Waits for the outcome, the limits of which {@code waits} enforces. */
  String await(Watchdog waits) {
    long deadline = call.deadline().nanos();
    Watchdog.Armed start = waits.arm(deadline, Optional.empty(), this::giveUpUnstarted);
    Watchdog.Armed limit =
        waits.arm(
            deadline + GRACE.toNanos(),
            Optional.empty(),
            () -> result.completeExceptionally(new WaitLimit()));
    try {
      return result.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof WaitLimit) {
        throw abandon() ? new ScriptTimeoutException(call.deadline().timeout()) : notStarted();
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
      start.close();
      limit.close();
    }
  }

  /** Gives up on the call; true when a worker had started it (and is told to stop it). */
  private boolean abandon() {
    if (state.compareAndSet(QUEUED, ABANDONED)) {
      return false;
    }
    ScriptIsolate isolate = running.get();
    if (isolate != null) {
      isolate.interrupt(call);
    }
    return true;
  }

  /** The caller's wait reached the deadline plus the grace: the worker never reported. */
  private static final class WaitLimit extends Exception {
    private static final long serialVersionUID = 1L;

    WaitLimit() {
      super(null, null, false, false);
    }
  }
}

package dev.svc.script;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The call an isolate is running and the fetches it has in flight. A fetch starts on the isolate's
 * thread (the sandbox calls the host), finishes on the host's threads, and is settled back on the
 * isolate's thread, which takes finished fetches one at a time from here.
 */
final class RunningCall {
  /** Fetches one call may have in flight at once. */
  static final int MAX_FETCHES_IN_FLIGHT = 64;

  /** A fetch that finished: its id in the sandbox and its JSON answer. */
  record Finished(int id, String json) {
    /** Put in the queue instead of a fetch when the call is interrupted. */
    static final Finished INTERRUPTED = new Finished(-1, "");
  }

  private final ScriptCall call;
  private final LinkedBlockingQueue<Finished> finished = new LinkedBlockingQueue<>();
  private final List<CompletableFuture<String>> requests = new ArrayList<>();
  private int inFlight; // the isolate's thread only

  RunningCall(ScriptCall call) {
    this.call = call;
  }

  ScriptCall call() {
    return call;
  }

  /**
   * Starts fetch {@code id} of the sandbox with {@code request} (its JSON); past the cap, it
   * finishes at once with an error.
   */
  void fetch(int id, String request) {
    inFlight++;
    if (inFlight > MAX_FETCHES_IN_FLIGHT) {
      finished.add(
          new Finished(
              id, "{\"error\":\"more than " + MAX_FETCHES_IN_FLIGHT + " requests at once\"}"));
      return;
    }
    CompletableFuture<String> response = call.host().fetch(request);
    requests.add(response);
    response.thenAccept(json -> finished.add(new Finished(id, json)));
  }

  /** Whether no fetch is in flight: then nothing can settle the call's promise. */
  boolean awaitsNothing() {
    return inFlight == 0;
  }

  /**
   * The next fetch to finish, waiting up to {@code nanos}; empty when none finished in time, or
   * {@link Finished#INTERRUPTED}.
   */
  Optional<Finished> next(long nanos) throws InterruptedException {
    Finished next = finished.poll(nanos, TimeUnit.NANOSECONDS);
    if (next == null) {
      return Optional.empty();
    }
    if (next != Finished.INTERRUPTED) {
      inFlight--;
    }
    return Optional.of(next);
  }

  /** Wakes the isolate's thread waiting in {@link #next}: the call was interrupted. */
  void interrupt() {
    finished.add(Finished.INTERRUPTED);
  }

  /** Cancels the requests still running: nobody will read their answers. */
  void abandon() {
    for (CompletableFuture<String> request : requests) {
      request.cancel(true);
    }
  }
}

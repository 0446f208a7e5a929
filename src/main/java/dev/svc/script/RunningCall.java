package dev.svc.script;

import dev.svc.call.ClientRequest;
import dev.svc.call.ClientRequestException;
import dev.svc.call.ClientRequests;
import dev.svc.json.Jackson;
import dev.svc.json.LoneSurrogates;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The call an isolate is running and the fetches it has in flight. A fetch starts on the isolate's
 * thread (the sandbox calls the host), finishes on the host's threads, and is settled back on the
 * isolate's thread, which takes finished fetches one at a time from here.
 */
final class RunningCall {
  /** Fetches one call may have in flight at once. */
  static final int MAX_FETCHES_IN_FLIGHT = 64;

  private static final JsonMapper JSON = Jackson.MAPPER;

  /** A fetch that finished: its id in the sandbox and its JSON answer. */
  record Finished(int id, String json) {
    /** Put in the queue instead of a fetch when the call is interrupted. */
    static final Finished INTERRUPTED = new Finished(-1, "");
  }

  /** A finished request waiting for the isolate, and what gives back the heap its answer holds. */
  private record Arrived(Finished finished, Runnable release) {}

  private final ScriptCall call;
  private final LinkedBlockingQueue<Arrived> finished = new LinkedBlockingQueue<>();
  private volatile boolean abandoned;
  private final List<CompletableFuture<?>> requests = new ArrayList<>();
  private int inFlight; // the isolate's thread only
  private int nextRound; // questions whose answers come with the retried call (2026-07-28)

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
      arrived(
          new Finished(
              id, "{\"error\":\"more than " + MAX_FETCHES_IN_FLIGHT + " requests at once\"}"));
      return;
    }
    CompletableFuture<FetchAnswer> response = call.host().fetch(request);
    requests.add(response);
    response.thenAccept(answer -> {
      finished.add(new Arrived(new Finished(id, answer.json()), answer.release()));
      if (abandoned) { // the call ended while this answer came: nobody will take it
        releaseWaiting();
      }
    });
  }

  private void arrived(Finished answer) {
    finished.add(new Arrived(answer, () -> {}));
  }

  /**
   * Sends request {@code id} of the sandbox to the call's client: {@code kind} is {@code elicit},
   * {@code sample} or {@code roots}, {@code argument} the JSON the script passed. The answer is
   * settled like a fetch's: JSON {@code {result}} or {@code {error}}. A question that goes out with
   * an {@code input_required} result is never settled in this run.
   */
  void ask(int id, String kind, String argument, Optional<String> key) {
    inFlight++;
    if (inFlight > MAX_FETCHES_IN_FLIGHT) {
      arrived(new Finished(id, error("more than " + MAX_FETCHES_IN_FLIGHT + " requests at once")));
      return;
    }
    ClientRequest request;
    try {
      request = ClientRequest.of(kind, LoneSurrogates.mended(JSON.readTree(argument), argument));
    } catch (IllegalArgumentException | JacksonException e) {
      arrived(new Finished(id, error(e.getMessage())));
      return;
    }
    switch (call.host().ask(request, key)) {
      case ClientRequests.Answer.NextRound next -> {
        inFlight--;
        nextRound++;
      }
      case ClientRequests.Answer.Coming coming -> {
        requests.add(coming.result());
        coming
            .result()
            .whenComplete((result, failure) ->
                arrived(
                    new Finished(
                        id,
                        failure == null
                            ? "{\"result\":" + JSON.writeValueAsString(result) + "}"
                            : error(reason(failure)))));
      }
    }
  }

  private static String reason(Throwable failure) {
    Throwable cause =
        failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    return cause instanceof ClientRequestException refused
        ? refused.getMessage()
        : cause instanceof java.util.concurrent.CancellationException
            ? "the request to the client was cancelled"
            : "asking the client failed";
  }

  private static String error(String message) {
    return "{\"error\":" + JSON.writeValueAsString(message) + "}";
  }

  /**
   * Whether no fetch or client request is in flight: then nothing can settle the call's promise.
   */
  boolean awaitsNothing() {
    return inFlight == 0;
  }

  /** Whether the script asked questions whose answers come with the retried call. */
  boolean waitsForNextRound() {
    return nextRound > 0;
  }

  /**
   * The next fetch to finish, waiting up to {@code nanos}; empty when none finished in time, or
   * {@link Finished#INTERRUPTED}.
   */
  Optional<Finished> next(long nanos) throws InterruptedException {
    Arrived next = finished.poll(nanos, TimeUnit.NANOSECONDS);
    if (next == null) {
      return Optional.empty();
    }
    // the isolate settles it at once: from here its answer counts against the isolate's heap
    next.release().run();
    if (next.finished() != Finished.INTERRUPTED) {
      inFlight--;
    }
    return Optional.of(next.finished());
  }

  /** Wakes the isolate's thread waiting in {@link #next}: the call was interrupted. */
  void interrupt() {
    arrived(Finished.INTERRUPTED);
  }

  /**
   * Cancels the requests still running and gives back what the answers nobody will read hold of the
   * fetch budget.
   */
  void abandon() {
    abandoned = true;
    for (CompletableFuture<?> request : requests) {
      request.cancel(true);
    }
    releaseWaiting();
  }

  private void releaseWaiting() {
    for (Arrived waiting; (waiting = finished.poll()) != null; ) {
      waiting.release().run();
    }
  }
}

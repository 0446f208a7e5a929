package dev.svc.script;

import dev.svc.call.Caller;
import dev.svc.call.ClientRequest;
import dev.svc.call.ClientRequests;
import dev.svc.call.Deadline;
import dev.svc.log.Level;
import dev.svc.log.Log;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What one call's {@code console}, {@code fetch} and client requests reach: the caller's {@link
 * ClientRequests}, the structured log (tag {@code script:<tool>}), the client's log when the caller
 * set a level, and the server's HTTP client under the call's deadline. Touched only by the thread
 * running the call.
 */
final class CallHost implements ScriptHost {
  private static final Log LOG = Log.tagged("script");

  /** Longest console line kept; longer ones are cut. */
  static final int MAX_CONSOLE_CHARS = 8192;

  /** Console lines kept per call; later ones are dropped (one notice says so). */
  static final int MAX_CONSOLE_LINES = 200;

  /** Told when the call starts or stops waiting for its fetches (the pool sizes itself by it). */
  @FunctionalInterface
  interface WaitListener {
    void waiting(boolean waiting);
  }

  private final String tool;
  private final Caller caller;
  private final Deadline deadline;
  private final HttpFetch http;
  private Log log; // made on the first console line: most calls write none
  private int lines;
  private WaitListener onWait = waiting -> {};

  CallHost(String tool, Caller caller, Deadline deadline, HttpFetch http) {
    this.tool = tool;
    this.caller = caller;
    this.deadline = deadline;
    this.http = http;
  }

  /** Set by whoever runs the call, before it starts. */
  void onWait(WaitListener listener) {
    onWait = listener;
  }

  @Override
  public void console(Level level, String message) {
    lines++;
    if (lines > MAX_CONSOLE_LINES) {
      if (lines == MAX_CONSOLE_LINES + 1) {
        write(Level.WARN, "more than " + MAX_CONSOLE_LINES + " console lines; the rest is dropped");
      }
      return;
    }
    write(
        level,
        message.length() > MAX_CONSOLE_CHARS
            ? message.substring(0, MAX_CONSOLE_CHARS) + "…"
            : message);
  }

  private void write(Level level, String message) {
    if (log == null) {
      log = LOG.child(tool);
    }
    switch (level) {
      case ERROR -> log.error(message);
      case WARN -> log.warn(message);
      case INFO -> log.info(message);
      case DEBUG -> log.debug(message);
    }
    caller.clientLog().log(level, "script:" + tool, message);
  }

  @Override
  public CompletableFuture<FetchAnswer> fetch(String request) {
    return http.start(request, deadline.remaining());
  }

  @Override
  public boolean declares(String capability) {
    return caller.client().declares(capability);
  }

  @Override
  public ClientRequests.Answer ask(ClientRequest request, Optional<String> key) {
    return caller.client().ask(request, key);
  }

  @Override
  public void waiting(boolean waiting) {
    onWait.waiting(waiting);
  }
}

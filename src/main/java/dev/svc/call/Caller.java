package dev.svc.call;

import java.util.Optional;

/**
 * Who is calling and on which request: what auth plugins, logs, caches and audit lines need.
 *
 * <p>A caller travels one way: as a parameter, from the protocol edge through the tool pipeline to
 * the auth plugin and the script runner. Not in a {@code ScopedValue}: who calls decides auth (the
 * headers) and the audit line, so every path that runs a tool must say who calls, which the
 * compiler checks for a parameter; an unbound {@code ScopedValue} would only show at run time, or
 * silently as a call without headers. Only the request id is also bound as {@link
 * dev.svc.log.LogContext#REQUEST_ID}, for the log lines of whatever code the call reaches.
 *
 * @param requestId the id svc gave the HTTP request; it appears in logs and server-fault errors
 * @param headers the HTTP headers of the request (for agents: of the request that started the task)
 * @param sessionId the MCP session, when there is one
 * @param clientLog where messages for the client go (script console output, …)
 * @param progress where progress of the request goes
 * @param via what the call came through, for audit lines: {@code mcp} or {@code agent:<name>}
 * @param client how the call asks its client something (elicitation, sampling, roots); {@link
 *     ClientRequests#NONE} when there is no client to ask
 * @param verified the access token {@code server.auth} verified (its principal is {@link
 *     VerifiedToken#principalId()}); empty without {@code server.auth}
 */
public record Caller(
    String requestId,
    Headers headers,
    Optional<String> sessionId,
    ClientLog clientLog,
    Progress progress,
    String via,
    ClientRequests client,
    Optional<VerifiedToken> verified) {
  public Caller(String requestId, Headers headers, Optional<String> sessionId) {
    this(requestId, headers, sessionId, Optional.empty());
  }

  public Caller(
      String requestId,
      Headers headers,
      Optional<String> sessionId,
      Optional<VerifiedToken> verified) {
    this(
        requestId,
        headers,
        sessionId,
        ClientLog.NONE,
        Progress.NONE,
        "mcp",
        ClientRequests.NONE,
        verified);
  }

  public static Caller internal(String requestId) {
    return new Caller(requestId, Headers.NONE, Optional.empty());
  }

  public Caller withClientLog(ClientLog log) {
    return new Caller(requestId, headers, sessionId, log, progress, via, client, verified);
  }

  public Caller withProgress(Progress reporter) {
    return new Caller(requestId, headers, sessionId, clientLog, reporter, via, client, verified);
  }

  /** This caller, coming through {@code channel} ({@code agent:<name>}). */
  public Caller via(String channel) {
    return new Caller(
        requestId, headers, sessionId, clientLog, progress, channel, client, verified);
  }

  /** This caller, asking its client through {@code requests}. */
  public Caller withClientRequests(ClientRequests requests) {
    return new Caller(requestId, headers, sessionId, clientLog, progress, via, requests, verified);
  }
}

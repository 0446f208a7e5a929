package dev.svc.protocol.mcp;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The sessions this instance has seen. Ids are signed tokens, so a valid id from another instance
 * is accepted and its state created here; ended sessions are remembered (for a day) so they get
 * 404.
 *
 * <p>The caches do their upkeep on the calling thread ({@code executor(Runnable::run)}): every
 * request reads the live cache, and Caffeine's default hands the upkeep to the common pool, which
 * woke one of its threads every few requests (2% of CPU under load).
 */
public final class McpSessions {
  private final SessionTokens tokens;
  private final RequestStates requestStates;
  private final Cache<String, McpSession> live =
      Caffeine.newBuilder()
          .expireAfterAccess(Duration.ofHours(24))
          .maximumSize(100_000)
          .executor(Runnable::run)
          .build();
  private final Cache<String, Boolean> ended =
      Caffeine.newBuilder()
          .expireAfterWrite(Duration.ofHours(24))
          .maximumSize(100_000)
          .executor(Runnable::run)
          .build();

  /** The requests of the stateless revision now running, each with a session of its own. */
  // keyed by a counter: a Long hashes at once, where a new object's identity hash cost 3% of a
  // stateless call's CPU under load (JFR)
  private final ConcurrentHashMap<Long, McpSession> stateless = new ConcurrentHashMap<>();

  private final AtomicLong statelessIds = new AtomicLong();

  public McpSessions(SessionTokens tokens) {
    this.tokens = tokens;
    this.requestStates = tokens.requestStates();
  }

  public McpSession create(String protocolVersion) {
    return create(protocolVersion, ClientCapabilities.NONE);
  }

  /** A new session whose client declared {@code client} in {@code initialize}. */
  public McpSession create(String protocolVersion, ClientCapabilities client) {
    return create(protocolVersion, client, Optional.empty());
  }

  /**
   * A new session of {@code owner} (the principal {@code server.auth} verified; empty without it).
   */
  public McpSession create(
      String protocolVersion, ClientCapabilities client, Optional<String> owner) {
    String id = tokens.issue(protocolVersion, Instant.now().getEpochSecond(), client, owner);
    McpSession session = new McpSession(id, protocolVersion, client, owner);
    live.put(id, session);
    return session;
  }

  /** The session with this id; empty when unknown, forged or ended. */
  public Optional<McpSession> find(String id) {
    return find(id, Optional.empty());
  }

  /**
   * The session with this id, for a request of {@code principal}; empty when unknown, forged,
   * ended, or another principal's (the same answer, so ids cannot be probed).
   */
  public Optional<McpSession> find(String id, Optional<String> principal) {
    McpSession known = live.getIfPresent(id); // the common case: one lookup
    if (known != null) {
      // end() removes a session from `live` as it ends
      return known.belongsTo(principal) ? Optional.of(known) : Optional.empty();
    }
    if (ended.getIfPresent(id) != null) {
      return Optional.empty();
    }
    return tokens
        .verify(id, principal)
        .map(claims ->
            live.get(
                id, k -> new McpSession(k, claims.protocolVersion(), claims.client(), principal)))
        .filter(session -> session.belongsTo(principal));
  }

  public void end(McpSession session) {
    ended.put(session.id(), Boolean.TRUE);
    live.invalidate(session.id());
    session.closeStreams();
  }

  public Collection<McpSession> all() {
    return live.asMap().values();
  }

  /**
   * A session for one request of a stateless revision (2026-07-28): it lives as long as the
   * request, holds the log level the request asked for, and lets the server abort the request as it
   * stops ({@code abortable}: a tool call). {@link #endStateless} ends it.
   */
  McpSession startStateless(RequestMeta meta, boolean abortable) {
    McpSession session = new McpSession("", meta.protocolVersion());
    meta.logLevel().ifPresent(session::setLogLevel);
    session.declareCapabilities(meta.clientCapabilities());
    if (abortable) {
      session.registeredAs(statelessIds.incrementAndGet());
      stateless.put(session.registration(), session);
    }
    return session;
  }

  void endStateless(McpSession session) {
    if (session.registration() != 0) {
      stateless.remove(session.registration());
    }
  }

  /** Every session with requests that may be running: the live ones and the stateless ones. */
  Stream<McpSession> withRequests() {
    return Stream.concat(live.asMap().values().stream(), stateless.values().stream());
  }

  /** The signer of 2026-07-28 {@code requestState}s, keyed like the session ids. */
  RequestStates requestStates() {
    return requestStates;
  }
}

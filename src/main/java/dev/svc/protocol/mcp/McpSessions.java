package dev.svc.protocol.mcp;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.svc.protocol.EventSink;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;
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

  /**
   * The sessions seen lately, at most {@link #MAX_LIVE} weighed by {@link McpSession#weight} (a
   * session's subscriptions count too): past that the least used go, and come back from their
   * signed id when their client returns (its protocol version, capabilities and owner are in the
   * id; a log level or a resource subscription it set is gone). A client that opens sessions by the
   * hundred thousand, or subscribes each to 100 long URIs, costs this instance at most ~7 MB more
   * (docs/serving.md).
   */
  private final Cache<String, McpSession> live =
      Caffeine.newBuilder()
          .expireAfterAccess(Duration.ofHours(24))
          .maximumWeight(MAX_LIVE)
          .weigher((String id, McpSession session) -> session.weight())
          .executor(Runnable::run)
          .build();

  /** The sessions with an open stream: never let go while their client listens. */
  private final ConcurrentHashMap<String, McpSession> streaming = new ConcurrentHashMap<>();

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

  /**
   * Most sessions one instance keeps (without those that have a stream open), a session with
   * subscriptions counted as several ({@link McpSession#weight}).
   */
  public static final int MAX_LIVE = 20_000;

  public McpSessions(SessionTokens tokens) {
    this.tokens = tokens;
    this.requestStates = tokens.requestStates();
  }

  public String begin(String protocolVersion) {
    return begin(protocolVersion, ClientCapabilities.NONE, Optional.empty());
  }

  /**
   * A new session's signed id, for a client that declared {@code client} in {@code initialize}, of
   * {@code owner} (the principal {@code server.auth} verified; empty without it). Its state is made
   * when the id is first used ({@link #find}), so an {@code initialize} that no request follows
   * costs nothing here: a client opening sessions in a loop fills no cache.
   */
  public String begin(String protocolVersion, ClientCapabilities client, Optional<String> owner) {
    return tokens.issue(protocolVersion, Instant.now().getEpochSecond(), client, owner);
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
    if (known == null) {
      known = streaming.get(id);
    }
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
                id,
                k -> {
                  McpSession made =
                      new McpSession(k, claims.protocolVersion(), claims.client(), principal);
                  // weighed again as it subscribes (a no-op once it is no longer live)
                  made.onResize(() -> live.asMap().replace(k, made, made));
                  return made;
                }))
        .filter(session -> session.belongsTo(principal));
  }

  public void end(McpSession session) {
    ended.put(session.id(), Boolean.TRUE);
    live.invalidate(session.id());
    streaming.remove(session.id());
    session.closeStreams();
  }

  /** Attaches a stream the client opened; the session stays here while any stream is open. */
  void openStream(McpSession session, EventSink stream) {
    session.attach(stream);
    streaming.put(session.id(), session);
  }

  void closeStream(McpSession session, EventSink stream) {
    session.detach(stream);
    if (!session.hasOpenStream()) {
      streaming.remove(session.id(), session);
    }
  }

  /** Every session this instance knows: the live ones and those with a stream open. */
  public Collection<McpSession> all() {
    if (streaming.isEmpty()) {
      return live.asMap().values();
    }
    Set<McpSession> all = Collections.newSetFromMap(new IdentityHashMap<>());
    all.addAll(live.asMap().values());
    all.addAll(streaming.values());
    return all;
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
    return Stream.concat(all().stream(), stateless.values().stream());
  }

  /** The signer of 2026-07-28 {@code requestState}s, keyed like the session ids. */
  RequestStates requestStates() {
    return requestStates;
  }
}

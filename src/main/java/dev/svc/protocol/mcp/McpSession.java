package dev.svc.protocol.mcp;

import dev.svc.json.Json;
import dev.svc.log.Level;
import dev.svc.protocol.EventSink;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What one instance knows of a session: its negotiated version, what its client can be asked, the
 * log level the client asked for, its resource subscriptions, its open streams, its requests in
 * flight and the requests it sent the client. Created on first sight of a valid session id, so a
 * session started on another instance works here too.
 */
public final class McpSession {
  private final String id;
  private final String protocolVersion;
  private volatile ClientCapabilities client;
  private volatile Optional<Level> logLevel = Optional.empty();
  // Null until first used: an instance may hold 20,000 sessions, most of them idle, and a
  // stateless request makes one per call; a session that never subscribes, streams, runs a request
  // or asks the client anything costs a third of what it did (bench/RESULTS.md, "Sessions").
  private volatile PendingClientRequests pending;
  private volatile Set<String> subscriptions;
  private volatile CopyOnWriteArrayList<EventSink> streams;
  private volatile ConcurrentHashMap<JsonNode, InFlight> inFlight;
  private volatile ObjectNode clientCapabilities;
  private long registration;
  private final Optional<String> owner;
  // what the subscriptions hold, in bytes (an estimate): the live sessions are bounded by it too
  private volatile long subscribedBytes;
  private volatile Runnable resized = () -> {};

  /** About what one subscription costs beside its URI's characters (string, set entry). */
  static final int SUBSCRIPTION_OVERHEAD = 96;

  /** About what a session without subscriptions holds: one unit of {@link #weight}. */
  static final int SESSION_BYTES = 350;

  /**
   * A request running on a thread of this instance; cancelling (by the client) or aborting (by the
   * server as it stops) interrupts that thread.
   */
  static final class InFlight {
    private final Thread thread = Thread.currentThread();
    private boolean cancelled;
    private boolean aborted;
    private boolean done;

    synchronized boolean cancelled() {
      return cancelled;
    }

    synchronized boolean aborted() {
      return aborted;
    }

    synchronized void cancel() {
      if (!done) {
        cancelled = true;
        thread.interrupt();
      }
    }

    synchronized void abort() {
      if (!done) {
        aborted = true;
        thread.interrupt();
      }
    }

    /** Marks the request finished; clears an interrupt a late cancel may have left. */
    void finish() {
      synchronized (this) {
        done = true;
      }
      Thread.interrupted();
    }
  }

  McpSession(String id, String protocolVersion) {
    this(id, protocolVersion, ClientCapabilities.NONE);
  }

  McpSession(String id, String protocolVersion, ClientCapabilities client) {
    this(id, protocolVersion, client, Optional.empty());
  }

  /**
   * @param owner the id of the principal {@code server.auth} verified when the session began; only
   *     its requests may use the session
   */
  McpSession(String id, String protocolVersion, ClientCapabilities client, Optional<String> owner) {
    this.id = id;
    this.protocolVersion = protocolVersion;
    this.client = client;
    this.owner = owner;
  }

  /**
   * The structure a field holds, made once: {@code current} reads the field, {@code install} sets
   * it, {@code fresh} makes one; the caller has already seen the field empty (the common case, a
   * field already made, takes no lock).
   */
  private synchronized <T> T made(Supplier<T> current, Consumer<T> install, Supplier<T> fresh) {
    T made = current.get();
    if (made == null) {
      made = fresh.get();
      install.accept(made);
    }
    return made;
  }

  /** Whether a request of {@code principal} (empty without server.auth) may use this session. */
  boolean belongsTo(Optional<String> principal) {
    return owner.equals(principal);
  }

  /** The number a stateless request's session is registered under while it runs; 0 when none. */
  long registration() {
    return registration;
  }

  void registeredAs(long number) {
    registration = number;
  }

  /** What the client declared it can be asked (elicitation, sampling, roots). */
  public ClientCapabilities client() {
    return client;
  }

  /** The requests sent to the client that wait for its answer on this instance. */
  PendingClientRequests pending() {
    PendingClientRequests made = pending;
    if (made == null) {
      made = made(() -> pending, v -> pending = v, PendingClientRequests::new);
    }
    return made;
  }

  public String id() {
    return id;
  }

  public String protocolVersion() {
    return protocolVersion;
  }

  /** The level set with {@code logging/setLevel}; empty when the client never asked for logs. */
  public Optional<Level> logLevel() {
    return logLevel;
  }

  void setLogLevel(Level level) {
    logLevel = Optional.of(level);
  }

  /**
   * The capabilities the client declared: in {@code initialize} for a session, in the request's
   * {@code _meta} under 2026-07-28; empty (none) when it declared none.
   */
  public ObjectNode clientCapabilities() {
    ObjectNode declared = clientCapabilities;
    return declared != null ? declared : Json.NODES.objectNode();
  }

  void declareCapabilities(ObjectNode capabilities) {
    clientCapabilities = capabilities;
    client = ClientCapabilities.of(capabilities);
  }

  /**
   * Subscribes the session to updates of {@code uri} ({@code resources/subscribe}); false when it
   * already has {@code most} other subscriptions.
   */
  boolean subscribe(String uri, int most) {
    Set<String> made = subscriptions;
    if (made == null) {
      made = made(() -> subscriptions, v -> subscriptions = v, ConcurrentHashMap::newKeySet);
    }
    synchronized (made) {
      if (made.size() >= most && !made.contains(uri)) {
        return false;
      }
      if (!made.add(uri)) {
        return true;
      }
      subscribedBytes += uri.length() + SUBSCRIPTION_OVERHEAD;
    }
    resized.run();
    return true;
  }

  void unsubscribe(String uri) {
    Set<String> made = subscriptions;
    if (made == null) {
      return;
    }
    synchronized (made) {
      if (!made.remove(uri)) {
        return;
      }
      subscribedBytes -= uri.length() + SUBSCRIPTION_OVERHEAD;
    }
    resized.run();
  }

  /** About how many bytes this session's subscriptions hold. */
  long subscribedBytes() {
    return subscribedBytes;
  }

  /**
   * What this session costs the cache of live sessions, in units of a session without
   * subscriptions: 100 subscriptions of 2,048-character URIs weigh as much as ~600 bare sessions,
   * so sessions that subscribe to long URIs cannot hold 20,000 times that (4 GB).
   */
  int weight() {
    return 1 + (int) Math.min(subscribedBytes / SESSION_BYTES, Integer.MAX_VALUE - 1);
  }

  /** What to run when {@link #weight} changed: the cache weighs the session again. */
  void onResize(Runnable action) {
    resized = action;
  }

  /** Whether the session subscribed to updates of {@code uri}. */
  public boolean subscribedTo(String uri) {
    Set<String> made = subscriptions;
    return made != null && made.contains(uri);
  }

  void attach(EventSink stream) {
    CopyOnWriteArrayList<EventSink> made = streams;
    if (made == null) {
      made = made(() -> streams, v -> streams = v, CopyOnWriteArrayList::new);
    }
    made.add(stream);
  }

  void detach(EventSink stream) {
    CopyOnWriteArrayList<EventSink> made = streams;
    if (made != null) {
      made.remove(stream);
    }
  }

  /** Sends a notification on every open stream of this session; drops streams that are gone. */
  public void notify(JsonNode message) {
    CopyOnWriteArrayList<EventSink> made = streams;
    if (made == null) {
      return;
    }
    for (EventSink stream : made) {
      if (!stream.send(message)) {
        made.remove(stream);
      }
    }
  }

  public boolean hasOpenStream() {
    CopyOnWriteArrayList<EventSink> made = streams;
    return made != null && made.stream().anyMatch(EventSink::isOpen);
  }

  /**
   * Registers the request running on the current thread; empty when a request with the same id is
   * still running in this session (MCP: an id is never reused within a session), which must not
   * take its place: a cancel for that id would no longer reach it.
   */
  Optional<InFlight> started(JsonNode requestId) {
    ConcurrentHashMap<JsonNode, InFlight> made = inFlight;
    if (made == null) {
      made = made(() -> inFlight, v -> inFlight = v, () -> new ConcurrentHashMap<>(4));
    }
    InFlight flight = new InFlight();
    return made.putIfAbsent(requestId, flight) == null ? Optional.of(flight) : Optional.empty();
  }

  void finished(JsonNode requestId, InFlight flight) {
    ConcurrentHashMap<JsonNode, InFlight> made = inFlight;
    if (made != null) {
      made.remove(requestId, flight);
    }
    flight.finish();
  }

  /** Cancels the request with this id, if it is still running here. */
  boolean cancel(JsonNode requestId) {
    ConcurrentHashMap<JsonNode, InFlight> made = inFlight;
    InFlight flight = made == null ? null : made.get(requestId);
    if (flight == null) {
      return false;
    }
    flight.cancel();
    return true;
  }

  /** Ends every request still running here: the server is stopping. */
  void abortAll() {
    ConcurrentHashMap<JsonNode, InFlight> made = inFlight;
    if (made != null) {
      made.values().forEach(InFlight::abort);
    }
  }

  void closeStreams() {
    CopyOnWriteArrayList<EventSink> open = streams;
    if (open != null) {
      open.clear();
    }
    PendingClientRequests waiting = pending;
    if (waiting != null) {
      waiting.abandonAll();
    }
    ConcurrentHashMap<JsonNode, InFlight> running = inFlight;
    if (running != null) {
      running.values().forEach(InFlight::cancel);
      running.clear();
    }
  }
}

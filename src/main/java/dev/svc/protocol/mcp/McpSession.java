package dev.svc.protocol.mcp;

import dev.svc.json.Json;
import dev.svc.log.Level;
import dev.svc.protocol.EventSink;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
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
  private final PendingClientRequests pending = new PendingClientRequests();
  private final AtomicReference<Optional<Level>> logLevel = new AtomicReference<>(Optional.empty());
  private final Set<String> subscriptions = ConcurrentHashMap.newKeySet();
  private final CopyOnWriteArrayList<EventSink> streams = new CopyOnWriteArrayList<>();
  private final ConcurrentHashMap<JsonNode, InFlight> inFlight = new ConcurrentHashMap<>();
  private volatile ObjectNode clientCapabilities = Json.NODES.objectNode();
  private long registration;
  private final Optional<String> owner;

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
    return pending;
  }

  public String id() {
    return id;
  }

  public String protocolVersion() {
    return protocolVersion;
  }

  /** The level set with {@code logging/setLevel}; empty when the client never asked for logs. */
  public Optional<Level> logLevel() {
    return logLevel.get();
  }

  void setLogLevel(Level level) {
    logLevel.set(Optional.of(level));
  }

  /**
   * The capabilities the client declared: in {@code initialize} for a session, in the request's
   * {@code _meta} under 2026-07-28; empty (none) when it declared none.
   */
  public ObjectNode clientCapabilities() {
    return clientCapabilities;
  }

  void declareCapabilities(ObjectNode capabilities) {
    clientCapabilities = capabilities;
    client = ClientCapabilities.of(capabilities);
  }

  public Set<String> subscriptions() {
    return subscriptions;
  }

  void attach(EventSink stream) {
    streams.add(stream);
  }

  void detach(EventSink stream) {
    streams.remove(stream);
  }

  /** Sends a notification on every open stream of this session; drops streams that are gone. */
  public void notify(JsonNode message) {
    for (EventSink stream : streams) {
      if (!stream.send(message)) {
        streams.remove(stream);
      }
    }
  }

  public boolean hasOpenStream() {
    return streams.stream().anyMatch(EventSink::isOpen);
  }

  /** Registers the request running on the current thread. */
  InFlight started(JsonNode requestId) {
    InFlight flight = new InFlight();
    inFlight.put(requestId, flight);
    return flight;
  }

  void finished(JsonNode requestId, InFlight flight) {
    inFlight.remove(requestId, flight);
    flight.finish();
  }

  /** Cancels the request with this id, if it is still running here. */
  boolean cancel(JsonNode requestId) {
    InFlight flight = inFlight.get(requestId);
    if (flight == null) {
      return false;
    }
    flight.cancel();
    return true;
  }

  /** Ends every request still running here: the server is stopping. */
  void abortAll() {
    inFlight.values().forEach(InFlight::abort);
  }

  void closeStreams() {
    streams.clear();
    pending.abandonAll();
    inFlight.values().forEach(InFlight::cancel);
    inFlight.clear();
  }
}

package dev.svc.protocol.mcp;

import dev.svc.log.Level;
import dev.svc.protocol.EventSink;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.JsonNode;

/**
 * What one instance knows of a session: its negotiated version, the log level the client asked for,
 * its resource subscriptions, its open streams and its requests in flight. Created on first sight
 * of a valid session id, so a session started on another instance works here too.
 */
public final class McpSession {
  private final String id;
  private final String protocolVersion;
  private final AtomicReference<Optional<Level>> logLevel = new AtomicReference<>(Optional.empty());
  private final Set<String> subscriptions = ConcurrentHashMap.newKeySet();
  private final CopyOnWriteArrayList<EventSink> streams = new CopyOnWriteArrayList<>();
  private final ConcurrentHashMap<String, Future<?>> inFlight = new ConcurrentHashMap<>();

  McpSession(String id, String protocolVersion) {
    this.id = id;
    this.protocolVersion = protocolVersion;
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

  void started(JsonNode requestId, Future<?> call) {
    inFlight.put(requestId.toString(), call);
  }

  void finished(JsonNode requestId) {
    inFlight.remove(requestId.toString());
  }

  /** Cancels the request with this id, if it is still running here. */
  boolean cancel(JsonNode requestId) {
    Future<?> call = inFlight.remove(requestId.toString());
    return call != null && call.cancel(true);
  }

  void closeStreams() {
    streams.clear();
    inFlight.values().forEach(f -> f.cancel(true));
    inFlight.clear();
  }
}

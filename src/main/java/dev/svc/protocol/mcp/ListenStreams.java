package dev.svc.protocol.mcp;

import dev.svc.call.ByteBudget;
import dev.svc.json.Json;
import dev.svc.protocol.EventSink;
import dev.svc.protocol.jsonrpc.JsonRpcCodec;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.runtime.ModelChanges;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The open {@code subscriptions/listen} streams of MCP 2026-07-28: each a long-lived POST answered
 * with SSE, receiving only the notifications its client opted into, each tagged with the stream's
 * subscription id (the JSON-RPC id of the listen request).
 */
final class ListenStreams {
  /** Most URIs one listen request may name in {@code resourceSubscriptions}. */
  static final int MAX_RESOURCE_SUBSCRIPTIONS = 1000;

  /**
   * What the filters and ids of all open listen streams may hold together, as {@link #cost} counts
   * it: a thirty-second of the heap (16 MiB at the launcher's 512 MiB), and never less than one
   * stream naming the most URIs. Before, each stream kept up to ~3.5 MB for as long as it stayed
   * open, and one client's 150 streams (within {@code connections_per_client}) filled the heap.
   */
  static final long BUDGET =
      Math.max(
          Runtime.getRuntime().maxMemory() / 32,
          MAX_RESOURCE_SUBSCRIPTIONS
              * (2L * ResourceMethods.MAX_SUBSCRIBED_URI + McpSession.SUBSCRIPTION_OVERHEAD));

  private final CopyOnWriteArrayList<Listener> listeners = new CopyOnWriteArrayList<>();
  private final ByteBudget held = new ByteBudget(BUDGET);

  /**
   * About what a stream with this filter and id holds while it is open: two bytes a character (URIs
   * outside Latin-1 take two), and what a set entry costs beside.
   */
  static long cost(Filter filter, JsonNode subscriptionId) {
    long bytes = 2L * subscriptionId.toString().length() + McpSession.SUBSCRIPTION_OVERHEAD;
    for (String uri : filter.resourceSubscriptions()) {
      bytes += 2L * uri.length() + McpSession.SUBSCRIPTION_OVERHEAD;
    }
    return bytes;
  }

  /** Takes {@code bytes} from the budget; false when the open streams already hold too much. */
  boolean reserve(long bytes) {
    return held.take(bytes);
  }

  /** Gives back what {@link #reserve} took, once the stream has ended. */
  void release(long bytes) {
    held.give(bytes);
  }

  /** What a client asked to hear of: svc honours every kind, so the acknowledgement repeats it. */
  record Filter(
      boolean toolsListChanged,
      boolean promptsListChanged,
      boolean resourcesListChanged,
      Set<String> resourceSubscriptions) {

    Filter {
      resourceSubscriptions = Set.copyOf(resourceSubscriptions);
    }

    /**
     * Reads {@code params.notifications}.
     *
     * @throws JsonRpcException {@code -32602} when it is malformed
     */
    static Filter of(ObjectNode params) {
      JsonNode notifications = params.get("notifications");
      if (notifications == null || notifications.isNull()) {
        return new Filter(false, false, false, Set.of());
      }
      if (!notifications.isObject()) {
        throw JsonRpcException.invalidParams("`notifications` must be an object");
      }
      Set<String> uris = new LinkedHashSet<>();
      JsonNode named = notifications.get("resourceSubscriptions");
      if (named != null && !named.isNull()) {
        if (!named.isArray()) {
          throw JsonRpcException.invalidParams(
              "`notifications.resourceSubscriptions` must be a list of resource URIs");
        }
        for (JsonNode uri : named) {
          if (!uri.isString() || uri.asString().isEmpty()) {
            throw JsonRpcException.invalidParams(
                "`notifications.resourceSubscriptions` must hold resource URIs (strings)");
          }
          if (uri.asString().length() > ResourceMethods.MAX_SUBSCRIBED_URI) {
            // the stream keeps its filter as long as it is open: 1000 URIs of 2 KB at most
            throw JsonRpcException.invalidParams(
                "`notifications.resourceSubscriptions` holds a URI of "
                    + uri.asString().length()
                    + " characters; at most "
                    + ResourceMethods.MAX_SUBSCRIBED_URI);
          }
          uris.add(uri.asString());
        }
        if (uris.size() > MAX_RESOURCE_SUBSCRIPTIONS) {
          throw JsonRpcException.invalidParams(
              "`notifications.resourceSubscriptions` names "
                  + uris.size()
                  + " URIs; at most "
                  + MAX_RESOURCE_SUBSCRIPTIONS
                  + " per listen request");
        }
      }
      return new Filter(
          flag(notifications, "toolsListChanged"),
          flag(notifications, "promptsListChanged"),
          flag(notifications, "resourcesListChanged"),
          uris);
    }

    private static boolean flag(JsonNode notifications, String name) {
      JsonNode value = notifications.get(name);
      if (value != null && !value.isNull() && !value.isBoolean()) {
        throw JsonRpcException.invalidParams("`notifications." + name + "` must be a boolean");
      }
      return value != null && value.asBoolean(false);
    }

    /** The filter as the acknowledgement states it: only what will be sent. */
    ObjectNode toJson() {
      ObjectNode out = Json.NODES.objectNode();
      if (toolsListChanged) {
        out.put("toolsListChanged", true);
      }
      if (promptsListChanged) {
        out.put("promptsListChanged", true);
      }
      if (resourcesListChanged) {
        out.put("resourcesListChanged", true);
      }
      if (!resourceSubscriptions.isEmpty()) {
        ArrayNode uris = out.putArray("resourceSubscriptions");
        resourceSubscriptions.forEach(uris::add);
      }
      return out;
    }
  }

  /** One open stream. */
  record Listener(EventSink sink, JsonNode subscriptionId, Filter filter) {
    /** Sends one notification, tagged with the subscription id; false when the stream is gone. */
    boolean send(String method, ObjectNode params) {
      params.putObject("_meta").set(RequestMeta.SUBSCRIPTION_ID, subscriptionId);
      return sink.send(JsonRpcCodec.notification(method, params));
    }
  }

  /**
   * Opens a stream: sends {@code notifications/subscriptions/acknowledged} (always the first
   * message) and registers the listener for {@link #publish}.
   */
  Listener open(EventSink sink, JsonNode subscriptionId, Filter filter) {
    Listener listener = new Listener(sink, subscriptionId, filter);
    ObjectNode ack = Json.NODES.objectNode();
    ack.set("notifications", filter.toJson());
    listener.send("notifications/subscriptions/acknowledged", ack);
    listeners.add(listener);
    return listener;
  }

  void close(Listener listener) {
    listeners.remove(listener);
  }

  /** Tells each open stream what a reload changed, as far as its filter asked. */
  void publish(ModelChanges changes) {
    for (Listener listener : listeners) {
      Filter filter = listener.filter();
      boolean open = true;
      if (filter.toolsListChanged() && changes.toolsChanged()) {
        open = listener.send("notifications/tools/list_changed", Json.NODES.objectNode());
      }
      if (open && filter.promptsListChanged() && changes.promptsChanged()) {
        open = listener.send("notifications/prompts/list_changed", Json.NODES.objectNode());
      }
      if (open && filter.resourcesListChanged() && changes.resourcesChanged()) {
        open = listener.send("notifications/resources/list_changed", Json.NODES.objectNode());
      }
      for (String uri : changes.updatedUris()) {
        if (open && filter.resourceSubscriptions().contains(uri)) {
          open =
              listener.send(
                  "notifications/resources/updated", Json.NODES.objectNode().put("uri", uri));
        }
      }
      if (!open) {
        listeners.remove(listener);
      }
    }
  }

  int size() {
    return listeners.size();
  }
}

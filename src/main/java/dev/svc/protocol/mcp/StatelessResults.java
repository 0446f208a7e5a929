package dev.svc.protocol.mcp;

import dev.svc.SvcVersion;
import dev.svc.json.Json;
import dev.svc.runtime.ProjectRuntime;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How MCP 2026-07-28 writes a result: its {@code resultType}, the server's identity, cache hints.
 */
final class StatelessResults {
  private final CacheHints cacheHints;
  private volatile ServerInfo serverInfo = new ServerInfo(null, Json.NODES.objectNode());

  /**
   * {@code _meta} naming the server ({@code io.modelcontextprotocol/serverInfo}) of one runtime.
   */
  private record ServerInfo(ProjectRuntime runtime, ObjectNode json) {}

  StatelessResults(CacheHints cacheHints) {
    this.cacheHints = cacheHints;
  }

  /**
   * The result as 2026-07-28 writes it: {@code resultType} (kept when the handler set it, e.g.
   * {@code input_required}), the server's identity in {@code _meta}, and cache hints on the results
   * a client may cache. Those are copied (shallowly) first, as some are built once and shared; the
   * others are made for this request and completed in place.
   */
  ObjectNode complete(String method, ObjectNode result, ProjectRuntime current) {
    Optional<CacheHints.Hint> hint = cacheHints.of(method);
    ObjectNode out = result;
    if (hint.isPresent()) {
      out = Json.NODES.objectNode();
      out.setAll(result);
    }
    JsonNode resultType = out.get("resultType");
    if (resultType == null) {
      out.put("resultType", "complete");
    }
    ObjectNode identity = serverMeta(current);
    if (out.get("_meta") instanceof ObjectNode own) {
      ObjectNode meta = Json.NODES.objectNode();
      meta.setAll(own);
      meta.setAll(identity);
      out.set("_meta", meta);
    } else {
      out.set("_meta", identity);
    }
    if (hint.isPresent() && (resultType == null || resultType.asString("").equals("complete"))) {
      hint.get().writeTo(out);
    }
    return out;
  }

  /**
   * {@code {"io.modelcontextprotocol/serverInfo": {name, version}}} of a runtime, built once and
   * shared by every result (never changed after it is built).
   */
  private ObjectNode serverMeta(ProjectRuntime current) {
    ServerInfo known = serverInfo;
    if (known.runtime() == current) {
      return known.json();
    }
    var service = current.model().service();
    ObjectNode meta = Json.NODES.objectNode();
    meta.putObject(RequestMeta.SERVER_INFO)
        .put("name", service.name())
        .put("version", service.version().orElse(SvcVersion.current()));
    serverInfo = new ServerInfo(current, meta);
    return meta;
  }
}

package dev.svc.protocol.mcp;

import dev.svc.log.Level;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a 2026-07-28 request says about itself in {@code params._meta}: there is no handshake, so
 * every request carries its protocol version and the client's capabilities (and may carry its
 * identity, the log level it wants, a progress token and trace context).
 *
 * @param protocolVersion {@code io.modelcontextprotocol/protocolVersion}, as sent (not yet checked
 *     against the revisions svc serves)
 * @param clientCapabilities {@code io.modelcontextprotocol/clientCapabilities}
 * @param clientInfo {@code io.modelcontextprotocol/clientInfo}: self-reported, for logs only
 * @param logLevel {@code io.modelcontextprotocol/logLevel}: without it the request gets no {@code
 *     notifications/message}
 * @param progressToken {@code progressToken}: the client wants {@code notifications/progress}
 * @see <a href="https://modelcontextprotocol.io/specification/2026-07-28/basic/index#_meta">MCP
 *     2026-07-28 _meta</a>
 */
record RequestMeta(
    String protocolVersion,
    ObjectNode clientCapabilities,
    Optional<ObjectNode> clientInfo,
    Optional<Level> logLevel,
    Optional<JsonNode> progressToken) {

  static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  static final String LOG_LEVEL = "io.modelcontextprotocol/logLevel";
  static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
  static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  /** The revision a request claims in its body, when it claims one (any JSON value). */
  static Optional<JsonNode> claimedVersion(ObjectNode params) {
    JsonNode meta = params.get("_meta");
    return meta != null && meta.isObject()
        ? Optional.ofNullable(meta.get(PROTOCOL_VERSION))
        : Optional.empty();
  }

  /**
   * Reads the {@code _meta} of a stateless request.
   *
   * @throws JsonRpcException {@code -32602} naming what is missing or malformed
   */
  static RequestMeta of(ObjectNode params) {
    JsonNode meta = params.get("_meta");
    if (meta == null || !meta.isObject()) {
      throw JsonRpcException.invalidParams(
          "`params._meta` is required: MCP 2026-07-28 requests carry `"
              + PROTOCOL_VERSION
              + "` and `"
              + CLIENT_CAPABILITIES
              + "` in it");
    }
    JsonNode version = meta.get(PROTOCOL_VERSION);
    if (version == null || !version.isString() || version.asString().isEmpty()) {
      throw JsonRpcException.invalidParams(
          "`params._meta[\"" + PROTOCOL_VERSION + "\"]` must name the protocol version");
    }
    JsonNode capabilities = meta.get(CLIENT_CAPABILITIES);
    if (!(capabilities instanceof ObjectNode declared)) {
      throw JsonRpcException.invalidParams(
          "`params._meta[\""
              + CLIENT_CAPABILITIES
              + "\"]` must be the client's capabilities (an object, `{}` for none)");
    }
    JsonNode info = meta.get(CLIENT_INFO);
    if (info != null
        && !info.isNull()
        && !(info instanceof ObjectNode o
            && o.path("name").isString()
            && o.path("version").isString())) {
      // optional, but when sent an Implementation, as initialize's clientInfo is
      throw JsonRpcException.invalidParams(
          "`params._meta[\""
              + CLIENT_INFO
              + "\"]` must be an object with string `name` and `version`, or be left out");
    }
    JsonNode level = meta.get(LOG_LEVEL);
    Optional<Level> logLevel = Optional.empty();
    if (level != null && !level.isNull()) {
      logLevel = level.isString() ? LogLevels.parse(level.asString()) : Optional.empty();
      if (logLevel.isEmpty()) {
        throw JsonRpcException.invalidParams(
            "`params._meta[\""
                + LOG_LEVEL
                + "\"]` must be one of debug, info, notice, warning, error, critical, alert,"
                + " emergency");
      }
    }
    return new RequestMeta(
        version.asString(),
        declared,
        info instanceof ObjectNode o ? Optional.of(o) : Optional.empty(),
        logLevel,
        progressToken(params));
  }

  /**
   * The request's {@code params._meta.progressToken}, under any revision; empty when it sent none.
   * MCP's {@code ProgressToken} is a string or a number and {@code _meta} an object: anything else
   * is the client's mistake, said before the request runs, not a value echoed back in every {@code
   * notifications/progress} (or a {@code _meta} silently ignored).
   *
   * @throws JsonRpcException {@code -32602} when {@code _meta} is not an object or the token is
   *     neither a string nor a number
   */
  static Optional<JsonNode> progressToken(ObjectNode params) {
    JsonNode meta = params.get("_meta");
    if (meta == null || meta.isNull()) {
      return Optional.empty();
    }
    if (!meta.isObject()) {
      throw JsonRpcException.invalidParams("`params._meta` must be an object");
    }
    JsonNode token = meta.get("progressToken");
    if (token == null || token.isNull()) {
      return Optional.empty();
    }
    if (!token.isString() && !token.isNumber()) {
      throw JsonRpcException.invalidParams(
          "`params._meta.progressToken` must be a string or a number");
    }
    return Optional.of(token);
  }

  /**
   * Whether the client declared {@code capability} (e.g. {@code elicitation}, {@code sampling}).
   */
  boolean declares(String capability) {
    JsonNode declared = clientCapabilities.get(capability);
    return declared != null && !declared.isNull();
  }
}

package dev.svc.runtime;

import dev.svc.auth.AuthDecision;
import dev.svc.auth.AuthPlugin;
import dev.svc.call.Caller;
import dev.svc.call.Deadline;
import dev.svc.call.Headers;
import dev.svc.json.Json;
import dev.svc.log.Log;
import dev.svc.model.ScriptRef;
import dev.svc.script.ScriptFailedException;
import dev.svc.script.ScriptRunner;
import dev.svc.script.ScriptTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.regex.Matcher;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A custom auth plugin: the default export of {@code app/plugins/<name>.ts}, run in the script
 * sandbox with {@code {headers, policy, tool}} (and {@code auth: {subject, claims, scopes}} when
 * {@code server.auth} verified the caller's token). It returns {@code true}/{@code false} or {@code
 * {allow, reason, identity}}; anything else, a throw or a timeout refuses the call.
 *
 * <p>The identity keeps cached results of different callers apart. A plugin may return one (a user
 * id); otherwise callers are told apart by a fingerprint of their {@code Authorization} and {@code
 * X-API-Key} headers.
 */
final class ScriptAuthPlugin implements AuthPlugin {
  private static final Log LOG = Log.tagged("auth");

  private final ScriptRunner scripts;
  private final String name;
  private final ScriptRef script;
  private final String tool;
  private final Map<String, String> policy;
  private final Duration timeout;

  ScriptAuthPlugin(
      ScriptRunner scripts,
      String name,
      ScriptRef script,
      String tool,
      Map<String, String> policy,
      Duration timeout) {
    this.scripts = scripts;
    this.name = name;
    this.script = script;
    this.tool = tool;
    this.policy = Map.copyOf(policy);
    this.timeout = timeout;
  }

  @Override
  public AuthDecision authorize(Caller caller) {
    Headers headers = caller.headers();
    ObjectNode payload = Json.NODES.objectNode();
    ObjectNode seen = payload.putObject("headers");
    headers.forScripts().forEach(seen::put);
    ObjectNode policyNode = payload.putObject("policy");
    policy.forEach(policyNode::put);
    payload.put("tool", tool);
    // behind server.auth the token is out of the headers; what it proved is here instead
    caller.verified().ifPresent(token -> payload.set("auth", ScriptAuth.of(token)));
    JsonNode result;
    try {
      result =
          ScriptTelemetry.call(
              scripts,
              ScriptTelemetry.Stage.AUTH,
              script,
              payload,
              tool,
              // the plugin runs first in a tool call: the call's deadline is this one
              Deadline.after(timeout),
              caller);
    } catch (ScriptTimeoutException e) {
      // "the script ran longer than …" or "the script could not start within …: why"
      return new AuthDecision.Deny(
          e.messageFor(timeout)
              .replaceFirst(
                  "^the script", Matcher.quoteReplacement("the auth plugin `" + name + "`")));
    } catch (ScriptFailedException e) {
      return new AuthDecision.Deny(e.getMessage());
    }
    if (result.isBoolean()) {
      return result.asBoolean()
          ? new AuthDecision.Allow(fingerprint(headers))
          : new AuthDecision.Deny("the auth plugin `" + name + "` refused the call");
    }
    if (result.isObject() && result.path("allow").isBoolean()) {
      if (result.path("allow").asBoolean()) {
        JsonNode identity = result.path("identity");
        return new AuthDecision.Allow(
            identity.isString() && !identity.asString().isEmpty()
                ? name + ":" + identity.asString()
                : fingerprint(headers));
      }
      JsonNode reason = result.path("reason");
      return new AuthDecision.Deny(
          reason.isString() && !reason.asString().isBlank()
              ? reason.asString()
              : "the auth plugin `" + name + "` refused the call");
    }
    LOG.warn(
        "an auth plugin returned neither true/false nor {allow, reason}; the call is refused",
        "plugin",
        name,
        "tool",
        tool);
    return new AuthDecision.Deny(
        "the auth plugin `" + name + "` returned neither true/false nor {allow, reason}");
  }

  /** A non-secret id of the caller's credentials: 12 hex digits of their SHA-256. */
  private String fingerprint(Headers headers) {
    String credentials =
        headers.first("authorization").orElse("") + "\n" + headers.first("x-api-key").orElse("");
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(credentials.getBytes(StandardCharsets.UTF_8));
      return name + ":" + HexFormat.of().formatHex(hash, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

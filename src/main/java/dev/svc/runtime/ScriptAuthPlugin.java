package dev.svc.runtime;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.svc.auth.AuthDecision;
import dev.svc.auth.AuthPlugin;
import dev.svc.auth.Principal;
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
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * id); otherwise callers are told apart by a fingerprint of every header the plugin saw, less those
 * that change from one request of a caller to the next ({@link #PER_REQUEST}). Only {@code
 * Authorization} and {@code X-API-Key} were taken once: a plugin admitting by another header (an
 * auth proxy's {@code X-Forwarded-User}, a key in a header of its own) gave every caller the same
 * identity, and one caller's cached result was served to the next. A header that differs per
 * request and is not listed only costs cache hits.
 *
 * <p>It remembers the credentials ({@code Authorization}, {@code X-API-Key}) it admitted lately:
 * the rate limit takes any others for a guess and counts them for the address they come from
 * ({@link #takesForAGuess}), since only running the plugin could tell a made-up key from a real
 * one, and a window per made-up key would limit no one.
 */
final class ScriptAuthPlugin implements AuthPlugin {
  private static final Log LOG = Log.tagged("auth");

  /** Headers that say how a request travels, not who sends it: left out of the fingerprint. */
  static final Set<String> PER_REQUEST =
      Set.of(
          "host",
          "content-length",
          "content-type",
          "accept",
          "accept-encoding",
          "accept-language",
          "connection",
          "keep-alive",
          "te",
          "expect",
          "priority",
          "user-agent",
          "origin",
          "referer",
          "cache-control",
          "pragma",
          "if-none-match",
          "if-modified-since",
          "last-event-id",
          "traceparent",
          "tracestate",
          "baggage",
          "sentry-trace",
          "b3",
          "x-b3-traceid",
          "x-b3-spanid",
          "x-b3-parentspanid",
          "x-b3-sampled",
          "x-b3-flags",
          "x-request-id",
          "x-correlation-id",
          "x-amzn-trace-id",
          "x-cloud-trace-context",
          "mcp-session-id",
          "mcp-protocol-version",
          "mcp-method",
          "mcp-name",
          "forwarded",
          "via",
          "x-forwarded-for",
          "x-forwarded-proto",
          "x-forwarded-host",
          "x-forwarded-port",
          "x-real-ip",
          "cf-ray",
          "cf-connecting-ip",
          "true-client-ip",
          "dnt",
          "upgrade-insecure-requests",
          "sec-fetch-site",
          "sec-fetch-mode",
          "sec-fetch-dest",
          "sec-fetch-user",
          "sec-ch-ua",
          "sec-ch-ua-mobile",
          "sec-ch-ua-platform");

  private final ScriptRunner scripts;
  private final String name;
  private final ScriptRef script;
  private final String tool;
  private final Map<String, String> policy;
  private final Duration timeout;

  /**
   * The principals ({@link Principal#fromCredentials}) of credentials admitted lately. Only an
   * admission adds one, so guesses cannot fill it; bounded all the same.
   */
  private final Cache<String, Boolean> admitted =
      Caffeine.newBuilder()
          .maximumSize(ADMITTED_KEPT)
          .expireAfterAccess(Duration.ofHours(24))
          .build();

  /** How many admitted credentials one plugin of one tool remembers. */
  static final int ADMITTED_KEPT = 10_000;

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
              caller,
              secrets(headers));
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
      if (result.asBoolean()) {
        admit(headers);
        return new AuthDecision.Allow(fingerprint(headers));
      }
      return new AuthDecision.Deny("the auth plugin `" + name + "` refused the call");
    }
    if (result.isObject() && result.path("allow").isBoolean()) {
      if (result.path("allow").asBoolean()) {
        admit(headers);
        JsonNode identity = result.path("identity");
        return new AuthDecision.Allow(
            identity.isString() && !identity.asString().isEmpty()
                ? name + ":" + identity.asString()
                : fingerprint(headers));
      }
      JsonNode reason = result.path("reason");
      return new AuthDecision.Deny(
          reason.isString() && !reason.asString().isBlank()
              // shown to the caller as a thrown message would be: one line, bounded
              ? ScriptFailedException.oneLine(reason.asString())
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

  /**
   * Credentials this plugin has not admitted lately (or none at all): a guess, until running the
   * plugin admits them.
   */
  @Override
  public boolean takesForAGuess(Headers headers) {
    Principal principal = Principal.fromCredentials(headers);
    return principal.isAnonymous() || admitted.getIfPresent(principal.id()) == null;
  }

  private void admit(Headers headers) {
    Principal principal = Principal.fromCredentials(headers);
    if (!principal.isAnonymous()) {
      admitted.put(principal.id(), Boolean.TRUE);
    }
  }

  /**
   * What a thrown message must not repeat to the caller, the audit file or the log: the policy's
   * values (filled in from the environment: keys, client secrets) and the credentials the caller
   * sent. V8 quotes them when a plugin trips over them ({@code JSON.parse(policy.keys)}: {@code
   * Unexpected token 'P', "P4ss…" is not valid JSON}).
   */
  private List<String> secrets(Headers headers) {
    List<String> secrets = new ArrayList<>(policy.values());
    headers
        .forScripts()
        .forEach((header, value) -> {
          if (CREDENTIALS.contains(header)) {
            secrets.add(value);
          }
        });
    return secrets;
  }

  /** Headers that carry credentials (lower case, as plugins see them). */
  private static final Set<String> CREDENTIALS =
      Set.of("authorization", "proxy-authorization", "x-api-key");

  /**
   * A non-secret id of the caller: 32 hex digits of the SHA-256 of the headers the plugin saw
   * (names sorted), less {@link #PER_REQUEST}.
   */
  private String fingerprint(Headers headers) {
    StringBuilder seen = new StringBuilder();
    headers
        .forScripts()
        .forEach((header, value) -> {
          if (!PER_REQUEST.contains(header)) {
            seen.append(header).append(':').append(value.length()).append(':').append(value);
          }
        });
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(seen.toString().getBytes(StandardCharsets.UTF_8));
      return name + ":" + HexFormat.of().formatHex(hash, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

package dev.svc.protocol;

import dev.svc.auth.AdmittedHeaders;
import dev.svc.auth.BearerCredentials;
import dev.svc.auth.OAuthPolicy;
import dev.svc.auth.TokenCheck;
import dev.svc.auth.TokenVerifier;
import dev.svc.call.ClientText;
import dev.svc.call.VerifiedToken;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.json.Jackson;
import dev.svc.json.Json;
import dev.svc.log.Log;
import dev.svc.log.OncePer;
import dev.svc.model.EnvString;
import dev.svc.model.MissingVariableException;
import dev.svc.model.OAuthUrls;
import dev.svc.model.ServerAuth;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcCodec;
import dev.svc.protocol.jsonrpc.JsonRpcError;
import dev.svc.runtime.StartupException;
import dev.svc.telemetry.SvcMetrics;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code server.auth}: svc as an OAuth 2.1 resource server in front of {@code /mcp} and {@code
 * /agent/*} (MCP authorization, 2025-11-25 and 2026-07-28: "Authorization Server Discovery",
 * "Access Token Usage", "Error Handling"). It serves the protected-resource metadata (RFC 9728) and
 * admits a request only with a valid bearer token (RFC 6750 §2.1, header only), answering 401 with
 * a challenge that points at the metadata, 403 {@code insufficient_scope}, or 503 when the issuer's
 * keys are out of reach. Independent of the HTTP library: the server calls it.
 */
public final class EndpointAuth {
  /** RFC 9728 §3: the root form; the path-suffixed form for {@code /mcp} adds {@code /mcp}. */
  public static final String METADATA_PATH = "/.well-known/oauth-protected-resource";

  private static final Log LOG = Log.tagged("auth");

  private final OAuthPolicy policy;
  private final TokenVerifier verifier;
  private final Optional<AdmittedHeaders> admittedHeaders;
  private final OncePer unavailableWarning = new OncePer(Duration.ofSeconds(10));

  public EndpointAuth(OAuthPolicy policy, TokenVerifier verifier) {
    this.policy = policy;
    this.verifier = verifier;
    this.admittedHeaders = verifier.admittedHeaders();
  }

  public EndpointAuth(OAuthPolicy policy) {
    this(policy, new TokenVerifier(policy));
  }

  /** What to do with a request to a protected route. */
  public sealed interface Admission {
    /** Serve it: the call now carries its principal, and no longer its token. */
    record Admitted(HttpCall call) implements Admission {}

    record Refused(HttpReply reply) implements Admission {}
  }

  /**
   * The gate of {@code server.auth}, its env placeholders filled in from {@code environment}.
   *
   * @throws StartupException naming a missing variable, or a URL that is not one
   */
  public static EndpointAuth of(ServerAuth auth, Function<String, Optional<String>> environment) {
    List<Diagnostic> problems = new ArrayList<>();
    Optional<String> issuer = resolved(auth.issuer(), environment, problems);
    Optional<String> audience = resolved(auth.audience(), environment, problems);
    Optional<URI> jwks = Optional.empty();
    for (EnvString written : auth.jwksUri().stream().toList()) {
      jwks = resolved(written, environment, problems).flatMap(u -> url(u, written, problems));
    }
    issuer.ifPresent(i -> url(i, auth.issuer(), problems));
    audience
        .filter(String::isBlank)
        .ifPresent(a ->
            problems.add(
                Diagnostic.error(
                    "invalid-auth-audience",
                    auth.audience().origin(),
                    "`server.auth.policy.audience` is empty once its variables are filled in")));
    Optional<OAuthPolicy.Introspection> introspection =
        auth.introspection().flatMap(i -> introspection(i, environment, problems));
    if (!problems.isEmpty()) {
      throw new StartupException(problems);
    }
    OAuthPolicy policy =
        new OAuthPolicy(issuer.orElseThrow(), audience.orElseThrow(), auth.scopes(), jwks);
    return new EndpointAuth(introspection.map(policy::introspecting).orElse(policy));
  }

  private static Optional<OAuthPolicy.Introspection> introspection(
      ServerAuth.Introspection written,
      Function<String, Optional<String>> environment,
      List<Diagnostic> problems) {
    Optional<String> clientId = resolved(written.clientId(), environment, problems);
    Optional<String> clientSecret = resolved(written.clientSecret(), environment, problems);
    Optional<URI> endpoint = Optional.empty();
    for (EnvString uri : written.endpoint().stream().toList()) {
      endpoint = resolved(uri, environment, problems).flatMap(u -> url(u, uri, problems));
    }
    clientId
        .filter(String::isBlank)
        .ifPresent(id ->
            problems.add(
                Diagnostic.error(
                    "missing-field",
                    written.clientId().origin(),
                    "`server.auth.policy.introspection.client_id` is empty once its variables are"
                        + " filled in")));
    clientSecret
        .filter(String::isEmpty)
        .ifPresent(secret ->
            problems.add(
                Diagnostic.error(
                    "missing-field",
                    written.clientSecret().origin(),
                    "`server.auth.policy.introspection.client_secret` is empty once its variables"
                        + " are filled in")));
    if (clientId.isEmpty() || clientSecret.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new OAuthPolicy.Introspection(
            clientId.get(),
            clientSecret.get(),
            endpoint,
            written.everyToken(),
            written.cacheTime()));
  }

  private static Optional<String> resolved(
      EnvString value, Function<String, Optional<String>> environment, List<Diagnostic> problems) {
    try {
      return Optional.of(value.resolve(environment).strip());
    } catch (MissingVariableException e) {
      problems.add(
          Diagnostic.error(
                  "missing-env", e.origin(), "environment variable " + e.variable() + " is not set")
              .withHint("set it in the environment or in .env"));
      return Optional.empty();
    }
  }

  private static Optional<URI> url(String text, EnvString written, List<Diagnostic> problems) {
    return OAuthUrls.usable(text, written.origin(), "`server.auth`", "tokens and keys", problems);
  }

  /** What a token must be: the policy with its placeholders filled in. */
  public OAuthPolicy policy() {
    return policy;
  }

  public static boolean isMetadataPath(String path) {
    return path.equals(METADATA_PATH) || path.equals(METADATA_PATH + "/mcp");
  }

  /** The protected-resource metadata (RFC 9728 §2) of {@code /mcp}, at either well-known path. */
  public HttpReply metadata(HttpCall call) {
    if (!call.method().equals("GET") && !call.method().equals("HEAD")) {
      return HttpReply.error(
          405, Map.of("Allow", "GET, HEAD"), "Method not allowed: GET " + call.path());
    }
    ObjectNode document = Json.NODES.objectNode();
    document.put("resource", call.baseUrl() + "/mcp");
    document.putArray("authorization_servers").add(policy.issuer());
    ArrayNode scopes = document.putArray("scopes_supported");
    policy.scopes().forEach(scopes::add);
    document.putArray("bearer_methods_supported").add("header");
    return new HttpReply.Body(
        200,
        // any web page may read it: it is public, and browser-based clients discover with it
        Map.of(
            "Access-Control-Allow-Origin",
            "*",
            "Cache-Control",
            "max-age=300",
            // the resource URL follows these: a cache must not serve one client's to another
            "Vary",
            "Host, X-Forwarded-Host, X-Forwarded-Proto"),
        "application/json",
        JsonRpcCodec.bytes(document));
  }

  /** Admits {@code call} with a valid token, or says how it is refused. */
  public Admission admit(HttpCall call) {
    // the common case: the header of the client's previous request, admitted then
    List<String> sent = call.headers().all("authorization");
    if (sent.size() == 1 && admittedHeaders.isPresent()) {
      Optional<VerifiedToken> known = admittedHeaders.get().find(sent.getFirst());
      if (known.isPresent()) {
        return new Admission.Admitted(call.authenticated(known.get()));
      }
    }
    String bearerToken;
    switch (BearerCredentials.of(call.headers())) {
      case BearerCredentials.Missing missing -> {
        // RFC 6750 §3.1: no error code when the request carried no credentials
        return refuse(call, 401, Optional.empty(), "this server requires an OAuth access token");
      }
      case BearerCredentials.Several several -> {
        return refuse(
            call,
            400,
            Optional.of("invalid_request"),
            "the request has several Authorization headers");
      }
      case BearerCredentials.OtherScheme other -> {
        return refuse(
            call,
            401,
            Optional.empty(),
            "this server accepts only Bearer access tokens in the Authorization header");
      }
      case BearerCredentials.Malformed malformed -> {
        return refuse(
            call,
            400,
            Optional.of("invalid_request"),
            "the Authorization header is malformed: write `Bearer <token>`");
      }
      case BearerCredentials.Token bearer -> bearerToken = bearer.token();
    }
    switch (verifier.verify(bearerToken)) {
      case TokenCheck.Rejected rejected -> {
        return refuse(call, 401, Optional.of("invalid_token"), rejected.reason());
      }
      case TokenCheck.Unavailable unavailable -> {
        SvcMetrics.HTTP_REFUSALS.increment("auth_unavailable");
        if (unavailableWarning.due()) {
          LOG.warn(
              "cannot check an access token (this line is written at most every 10 s)",
              "path",
              ClientText.shown(call.path()),
              "reason",
              unavailable.reason());
        }
        return new Admission.Refused(
            body(
                call,
                503,
                Map.of("Retry-After", String.valueOf(policy.refreshInterval().toSeconds())),
                ErrorCodes.AUTHORIZATION_UNAVAILABLE,
                "the access token cannot be checked now: "
                    + unavailable.summary()
                    + "; retry later"));
      }
      case TokenCheck.Verified(VerifiedToken token) -> {
        List<String> missing = new ArrayList<>(policy.scopes());
        missing.removeAll(token.scopes());
        if (!missing.isEmpty()) {
          return refuse(
              call,
              403,
              Optional.of("insufficient_scope"),
              "the access token lacks the scope " + String.join(" ", missing));
        }
        admittedHeaders.ifPresent(headers -> headers.remember(sent.getFirst(), token));
        return new Admission.Admitted(call.authenticated(token));
      }
    }
  }

  private Admission refuse(HttpCall call, int status, Optional<String> error, String reason) {
    SvcMetrics.HTTP_REFUSALS.increment(
        status == 403 ? "forbidden" : status == 401 ? "unauthorized" : "bad_authorization");
    // debug, like every refusal: each request without a valid token would write a line, and
    // every OAuth client's first request is one
    LOG.debug(
        "request refused",
        "path",
        ClientText.shown(call.path()),
        "status",
        status,
        "reason",
        reason);
    StringBuilder challenge = new StringBuilder("Bearer");
    List<String> parameters = new ArrayList<>();
    parameters.add("resource_metadata=" + quoted(metadataUrl(call)));
    if (!policy.scopes().isEmpty()) {
      // RFC 6750 §3 and MCP "Scope Selection Strategy": every scope the request needs
      parameters.add("scope=" + quoted(String.join(" ", policy.scopes())));
    }
    error.ifPresent(e -> parameters.add("error=" + quoted(e)));
    error.ifPresent(e -> parameters.add("error_description=" + quoted(reason)));
    challenge.append(' ').append(String.join(", ", parameters));
    int code =
        switch (status) {
          case 403 -> ErrorCodes.INSUFFICIENT_SCOPE;
          case 400 -> ErrorCodes.INVALID_REQUEST;
          default -> ErrorCodes.UNAUTHORIZED;
        };
    String message =
        switch (status) {
          case 403 -> "Forbidden: " + reason;
          case 400 -> "Bad Request: " + reason;
          default -> "Unauthorized: " + reason;
        };
    return new Admission.Refused(
        body(call, status, Map.of("WWW-Authenticate", challenge.toString()), code, message));
  }

  /** The metadata of {@code /mcp} for MCP requests; the root form for agents' requests. */
  private static String metadataUrl(HttpCall call) {
    return call.baseUrl() + METADATA_PATH + (call.path().startsWith("/mcp") ? "/mcp" : "");
  }

  /**
   * A JSON-RPC error (with the request's id) when the request is JSON-RPC: a POST to {@code /mcp},
   * or a POST to an agent whose body says {@code jsonrpc}; else the plain {@code {"error": …}}.
   */
  private static HttpReply body(
      HttpCall call, int status, Map<String, String> headers, int code, String message) {
    if (call.method().equals("POST")
        && (call.path().startsWith("/mcp") || isJsonRpc(call.body()))) {
      return new HttpReply.Body(
          status,
          headers,
          "application/json",
          JsonRpcCodec.bytes(
              JsonRpcCodec.error(JsonRpcCodec.idOf(call.body()), JsonRpcError.of(code, message))));
    }
    return HttpReply.error(status, headers, message);
  }

  private static boolean isJsonRpc(byte[] body) {
    if (body.length == 0 || body[0] != '{') {
      return false;
    }
    try {
      JsonNode tree = Jackson.MAPPER.readTree(new String(body, StandardCharsets.UTF_8));
      return tree.has("jsonrpc");
    } catch (JacksonException e) {
      return false;
    }
  }

  /** An RFC 9110 quoted-string: {@code "} and {@code \} escaped, controls dropped. */
  private static String quoted(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c >= 0x20 && c < 0x7f) {
        out.append(c);
      } else if (c > 0x7f) {
        out.append('?');
      }
    }
    return out.append('"').toString();
  }
}

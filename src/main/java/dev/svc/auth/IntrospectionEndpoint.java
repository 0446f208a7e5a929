package dev.svc.auth;

import dev.svc.json.Jackson;
import dev.svc.json.LoneSurrogates;
import dev.svc.log.Log;
import dev.svc.model.OAuthUrls;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The authorization server's introspection endpoint (RFC 7662 §2), as its client: where it is
 * (given, or {@code introspection_endpoint} of {@code {issuer}/.well-known/openid-configuration},
 * OpenID Connect Discovery 1.0 §3 / RFC 8414 §2, discovered once; a failed discovery is retried at
 * most once per refresh interval), and one question to it: a form POST of the token with {@code
 * token_type_hint=access_token}, svc authenticated with HTTP Basic ({@code client_secret_basic},
 * RFC 6749 §2.3.1). Redirects are not followed (they would carry the client's credentials
 * elsewhere). Each exchange ends within {@link #TIMEOUT}, its body included ({@link IssuerHttp}).
 * Failures say what went wrong without the token or the secret.
 */
final class IntrospectionEndpoint {
  static final Duration TIMEOUT = Duration.ofSeconds(5);
  static final int SIZE_LIMIT = 64 * 1024;
  private static final Log LOG = Log.tagged("auth");

  /** What the endpoint said. */
  sealed interface Reply {
    record Answered(JsonNode answer) implements Reply {}

    /** No usable answer; {@code reason} is for the log. */
    record Failed(String reason) implements Reply {}
  }

  private final OAuthPolicy policy;
  private final String authorization;
  private final HttpClient http =
      HttpClient.newBuilder()
          .connectTimeout(TIMEOUT)
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();
  private final Discovered<URI> endpoint;

  IntrospectionEndpoint(OAuthPolicy policy, OAuthPolicy.Introspection settings, Clock clock) {
    this.policy = policy;
    this.endpoint =
        new Discovered<>(
            settings.endpoint().orElse(null), this::discover, policy.refreshInterval(), clock);
    // RFC 6749 §2.3.1: each part form-urlencoded before Base64
    this.authorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString(
                    (form(settings.clientId()) + ":" + form(settings.clientSecret()))
                        .getBytes(StandardCharsets.UTF_8));
  }

  /** Asks about {@code token}. */
  Reply ask(String token) {
    URI target;
    try {
      target = endpoint.get();
    } catch (Discovered.NotDiscoveredException e) {
      return new Reply.Failed(e.getMessage());
    }
    HttpRequest request =
        HttpRequest.newBuilder(target)
            .timeout(TIMEOUT)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .header("Authorization", authorization)
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "token=" + form(token) + "&token_type_hint=access_token"))
            .build();
    IssuerHttp.Answer response;
    String body;
    try {
      response = IssuerHttp.exchange(http, request, TIMEOUT, SIZE_LIMIT);
      body = text(response);
    } catch (HttpTimeoutException e) {
      // the whole answer, not only its headers: a dribbling endpoint is cut off here too
      return new Reply.Failed(
          "the introspection endpoint " + target + " did not answer within " + seconds());
    } catch (IOException e) {
      return new Reply.Failed("cannot reach the introspection endpoint " + target + ": " + why(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Reply.Failed("interrupted while asking the introspection endpoint " + target);
    }
    if (body == null) {
      return new Reply.Failed(
          "the introspection endpoint " + target + " answered more than " + SIZE_LIMIT + " bytes");
    }
    int status = response.status();
    if (status == 401 || status == 403) {
      return new Reply.Failed(
          "the introspection endpoint "
              + target
              + " refused svc's client credentials (HTTP "
              + status
              + OAuthErrors.code(body)
              + "): check server.auth.policy.introspection client_id and client_secret, and that"
              + " the client may introspect tokens");
    }
    if (status != 200) {
      return new Reply.Failed(
          "the introspection endpoint "
              + target
              + " answered HTTP "
              + status
              + OAuthErrors.code(body));
    }
    try {
      return new Reply.Answered(LoneSurrogates.mended(Jackson.MAPPER.readTree(body), body));
    } catch (JacksonException e) {
      return new Reply.Failed(
          "the introspection endpoint " + target + " answered something that is not JSON");
    }
  }

  private URI discover() throws DiscoveryException {
    String issuer = policy.issuer();
    URI address =
        URI.create(
            (issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer)
                + "/.well-known/openid-configuration");
    String body;
    try {
      IssuerHttp.Answer response =
          IssuerHttp.exchange(
              http,
              HttpRequest.newBuilder(address)
                  .timeout(TIMEOUT)
                  .header("Accept", "application/json")
                  .GET()
                  .build(),
              TIMEOUT,
              SIZE_LIMIT);
      body = text(response);
      if (response.status() != 200) {
        throw new DiscoveryException(
            "the authorization server's discovery document "
                + address
                + " answered HTTP "
                + response.status());
      }
    } catch (HttpTimeoutException e) {
      throw new DiscoveryException(
          "the authorization server's discovery document "
              + address
              + " did not answer within "
              + seconds());
    } catch (IOException e) {
      throw new DiscoveryException(
          "cannot read the authorization server's discovery document " + address + ": " + why(e));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new DiscoveryException("interrupted while reading " + address);
    }
    JsonNode document;
    try {
      document = body == null ? null : Jackson.MAPPER.readTree(body);
    } catch (JacksonException e) {
      document = null;
    }
    if (document == null || !document.isObject()) {
      throw new DiscoveryException(
          "the authorization server's discovery document " + address + " is not a JSON object");
    }
    String named = document.path("issuer").asString("");
    if (!named.equals(issuer)) {
      throw new DiscoveryException(
          "the discovery document "
              + address
              + " names the issuer `"
              + named
              + "`, not `"
              + issuer
              + "` (server.auth.policy.issuer must be written exactly as the server names itself)");
    }
    String written = document.path("introspection_endpoint").asString("");
    if (written.isEmpty()) {
      throw new DiscoveryException(
          "the discovery document "
              + address
              + " names no introspection_endpoint: set server.auth.policy.introspection.endpoint");
    }
    return switch (OAuthUrls.check(written)) {
      case OAuthUrls.Check.Valid valid -> valid.uri();
      case OAuthUrls.Check.Insecure insecure -> {
        LOG.warn(
            "the introspection endpoint uses plain http to another machine: tokens and svc's"
                + " client secret travel in the clear",
            "url",
            written);
        yield insecure.uri();
      }
      case OAuthUrls.Check.Invalid invalid ->
          throw new DiscoveryException(
              "the discovery document's introspection_endpoint is not a usable URL: "
                  + invalid.reason());
    };
  }

  /** The body, or null when it is longer than {@link #SIZE_LIMIT}. */
  private static String text(IssuerHttp.Answer answer) {
    return answer.body().map(bytes -> new String(bytes, StandardCharsets.UTF_8)).orElse(null);
  }

  private static String seconds() {
    return TIMEOUT.toSeconds() + " s";
  }

  private static String form(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static String why(Exception e) {
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
  }

  private static final class DiscoveryException extends Exception {
    DiscoveryException(String message) {
      super(message, null, false, false);
    }
  }
}

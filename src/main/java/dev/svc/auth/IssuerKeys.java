package dev.svc.auth;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.jwk.source.RateLimitReachedException;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.Resource;
import com.nimbusds.jose.util.ResourceRetriever;
import dev.svc.json.Jackson;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The issuer's signing keys: where they are (given, or discovered once from {@code
 * {issuer}/.well-known/openid-configuration}), fetched and cached by Nimbus (five minutes; a token
 * with an unknown {@code kid} refreshes them, at most once per refresh interval). Each fetch ends
 * within {@link #TIMEOUT_MILLIS}, its body included. A failed fetch is a {@link
 * KeySourceException}; a failed discovery is retried at most once per refresh interval.
 */
final class IssuerKeys implements JWKSource<SecurityContext> {
  static final int TIMEOUT_MILLIS = 5_000;
  static final int SIZE_LIMIT = 512 * 1024;
  private static final Duration CACHE_TIME = Duration.ofMinutes(5);

  private final OAuthPolicy policy;
  private final ResourceRetriever retriever = new BoundedRetriever();
  private final Discovered<JWKSource<SecurityContext>> keys;

  IssuerKeys(OAuthPolicy policy, Clock clock) {
    this.policy = policy;
    this.keys = new Discovered<>(null, this::source, policy.refreshInterval(), clock);
  }

  /** Whether the last fetch of the keys failed (the issuer down, or its answer not a key set). */
  private volatile boolean fetchFailing;

  @Override
  public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
    try {
      List<JWK> found = keys().get(selector, context);
      fetchFailing = false;
      return found;
    } catch (RateLimitReachedException e) {
      throw e; // no fetch was made: what the last one came to still holds
    } catch (KeySourceException e) {
      fetchFailing = true;
      throw e;
    }
  }

  /**
   * Whether the keys could not be fetched the last time they were: then a token whose key is not
   * among those at hand cannot be judged, and the caller answers 503, not 401 (a client told its
   * token is invalid would throw it away and sign in again).
   */
  boolean fetchFailing() {
    return fetchFailing;
  }

  private JWKSource<SecurityContext> keys() throws KeySourceException {
    try {
      return keys.get();
    } catch (Discovered.NotDiscoveredException e) {
      throw new KeySourceException(e.getMessage(), e.getCause());
    }
  }

  /** Nimbus's cached, rate-limited source of the keys at the given or discovered location. */
  private JWKSource<SecurityContext> source() throws KeySourceException {
    URL location = policy.jwksUri().isPresent() ? url(policy.jwksUri().get()) : discover();
    return JWKSourceBuilder.<SecurityContext>create(location, retriever)
        .cache(
            // Nimbus wants the refresh interval shorter than the cache time
            Math.max(CACHE_TIME.toMillis(), 2 * policy.refreshInterval().toMillis()),
            TIMEOUT_MILLIS)
        .rateLimited(policy.refreshInterval().toMillis())
        .refreshAheadCache(false)
        .retrying(false)
        .outageTolerant(false)
        .build();
  }

  /** OpenID Connect Discovery 1.0 §4: the document's {@code issuer} must be ours, exactly. */
  private URL discover() throws KeySourceException {
    String issuer = policy.issuer();
    String address = policy.discoveryUrl();
    JsonNode document;
    try {
      String content = retriever.retrieveResource(url(URI.create(address))).getContent();
      document = Jackson.MAPPER.readTree(content);
    } catch (IOException | IllegalArgumentException e) {
      throw new KeySourceException(
          "cannot read the authorization server's discovery document " + address + ": " + why(e),
          e);
    } catch (JacksonException e) {
      throw new KeySourceException(
          "the authorization server's discovery document " + address + " is not JSON", e);
    }
    String named = document.path("issuer").asString("");
    if (!named.equals(issuer)) {
      throw new KeySourceException(
          "the discovery document "
              + address
              + " names the issuer `"
              + named
              + "`, not `"
              + issuer
              + "` (server.auth.policy.issuer must be written exactly as the server names itself)");
    }
    String jwks = document.path("jwks_uri").asString("");
    if (jwks.isEmpty()) {
      throw new KeySourceException("the discovery document " + address + " has no jwks_uri");
    }
    try {
      return url(new URI(jwks));
    } catch (URISyntaxException e) {
      throw new KeySourceException("the discovery document's jwks_uri is not a URL: " + jwks, e);
    }
  }

  private static URL url(URI uri) throws KeySourceException {
    try {
      return uri.toURL();
    } catch (MalformedURLException | IllegalArgumentException e) {
      throw new KeySourceException("not a URL: " + uri, e);
    }
  }

  /**
   * Nimbus's way to fetch the discovery document and the keys, each GET ending within {@link
   * #TIMEOUT_MILLIS} all told ({@link IssuerHttp}): Nimbus's own retriever bounds each read of the
   * socket, so an issuer dribbling its keys held the request that needed them for as long as it
   * dribbled (and the requests queued behind the refresh after it). An answer other than 2xx, or
   * longer than {@link #SIZE_LIMIT}, is an {@link IOException}, as with Nimbus's.
   */
  private static final class BoundedRetriever implements ResourceRetriever {
    private static final Duration TIMEOUT = Duration.ofMillis(TIMEOUT_MILLIS);
    private final HttpClient http =
        HttpClient.newBuilder()
            .connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();

    @Override
    public Resource retrieveResource(URL url) throws IOException {
      HttpRequest request;
      try {
        request =
            HttpRequest.newBuilder(url.toURI())
                .timeout(TIMEOUT)
                .header("Accept", "application/json")
                .GET()
                .build();
      } catch (URISyntaxException | IllegalArgumentException e) {
        throw new IOException("not a URL: " + url, e);
      }
      IssuerHttp.Answer answer;
      try {
        answer = IssuerHttp.exchange(http, request, TIMEOUT, SIZE_LIMIT);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while reading " + url, e);
      }
      if (answer.status() < 200 || answer.status() > 299) {
        throw new IOException("HTTP " + answer.status());
      }
      byte[] body =
          answer
              .body()
              .orElseThrow(
                  () -> new IOException("the answer is longer than " + SIZE_LIMIT + " bytes"));
      return new Resource(
          new String(body, StandardCharsets.UTF_8), answer.contentType().orElse(null));
    }
  }

  private static String why(Exception e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
  }
}

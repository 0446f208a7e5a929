package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Token introspection over real HTTP against a scripted authorization server: discovery of the
 * endpoint, the request svc sends (RFC 7662 §2.1, {@code client_secret_basic}), and every way the
 * endpoint can fail, which must make the token uncheckable (503), never invalid or a crash.
 */
class IntrospectionIT {
  private static final String AUDIENCE = "https://svc.test/mcp";

  /** What the endpoint answers: a status and a body, or nothing for {@code delay}. */
  private record Script(int status, String body, Duration delay) {}

  private HttpServer server;
  private final AtomicReference<Script> script = new AtomicReference<>();
  private final AtomicReference<String> discovery = new AtomicReference<>();
  private final AtomicReference<String> sentAuthorization = new AtomicReference<>();
  private final AtomicReference<String> sentBody = new AtomicReference<>();
  private final AtomicInteger discoveries = new AtomicInteger();
  private final AtomicInteger questions = new AtomicInteger();

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext(
        "/.well-known/openid-configuration",
        exchange -> {
          discoveries.incrementAndGet();
          String document = discovery.get();
          reply(exchange, document == null ? 404 : 200, document == null ? "{}" : document);
        });
    server.createContext(
        "/introspect",
        exchange -> {
          questions.incrementAndGet();
          sentAuthorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
          sentBody.set(
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          Script now = script.get();
          if (!now.delay().isZero()) {
            try {
              Thread.sleep(now.delay());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          reply(exchange, now.status(), now.body());
        });
    server.createContext(
        "/dribble",
        exchange -> {
          questions.incrementAndGet();
          exchange.getRequestBody().readAllBytes();
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, 0);
          try (var body = exchange.getResponseBody()) {
            body.write("{\"active\":true".getBytes(StandardCharsets.UTF_8));
            body.flush();
            for (int i = 0; i < 60; i++) {
              Thread.sleep(1000);
              body.write(' ');
              body.flush();
            }
            body.write('}');
          } catch (IOException | InterruptedException e) {
            // svc hung up
          }
        });
    server.createContext(
        "/moved",
        exchange -> {
          exchange.getResponseHeaders().add("Location", issuer() + "/introspect");
          reply(exchange, 307, "");
        });
    server.start();
    discovery.set(
        "{\"issuer\":\""
            + issuer()
            + "\",\"introspection_endpoint\":\""
            + issuer()
            + "/introspect\"}");
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  private static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  private String issuer() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private String active() {
    return "{\"active\":true,\"iss\":\""
        + issuer()
        + "\",\"aud\":\""
        + AUDIENCE
        + "\",\"sub\":\"alice\",\"scope\":\"mcp:tools\",\"exp\":"
        + Instant.now().plusSeconds(300).getEpochSecond()
        + "}";
  }

  private TokenVerifier verifier(Optional<URI> endpoint, boolean everyToken) {
    OAuthPolicy policy =
        new OAuthPolicy(issuer(), AUDIENCE, List.of(), Optional.empty())
            .introspecting(
                new OAuthPolicy.Introspection(
                    "svc client", "s3cr:t&=", endpoint, everyToken, Duration.ofSeconds(60)));
    return new TokenVerifier(policy, Clock.systemUTC());
  }

  private TokenVerifier verifier() {
    return verifier(Optional.empty(), false);
  }

  private static String unavailable(TokenCheck check) {
    assertThat(check).isInstanceOf(TokenCheck.Unavailable.class);
    TokenCheck.Unavailable unavailable = (TokenCheck.Unavailable) check;
    assertThat(unavailable.summary()).isEqualTo(TokenCheck.INTROSPECTION_OUT_OF_REACH);
    return unavailable.reason();
  }

  @Test
  void anOpaqueTokenIsIntrospectedAtTheDiscoveredEndpointWithClientSecretBasic() {
    script.set(new Script(200, active(), Duration.ZERO));
    TokenCheck check = verifier().verify("opaque+token/with=chars");
    assertThat(check).isInstanceOf(TokenCheck.Verified.class);
    assertThat(((TokenCheck.Verified) check).token().subject()).isEqualTo("alice");
    assertThat(sentBody.get())
        .isEqualTo("token=opaque%2Btoken%2Fwith%3Dchars&token_type_hint=access_token");
    String credentials =
        new String(
            Base64.getDecoder().decode(sentAuthorization.get().substring("Basic ".length())),
            StandardCharsets.UTF_8);
    assertThat(credentials)
        .as("each part form-encoded (RFC 6749 §2.3.1)")
        .isEqualTo("svc+client:s3cr%3At%26%3D");
    assertThat(URLDecoder.decode(credentials.split(":")[1], StandardCharsets.UTF_8))
        .isEqualTo("s3cr:t&=");
  }

  @Test
  void theEndpointIsDiscoveredOnceAndAnActiveAnswerIsRemembered() {
    script.set(new Script(200, active(), Duration.ZERO));
    TokenVerifier verifier = verifier();
    for (int i = 0; i < 3; i++) {
      assertThat(verifier.verify("opaque-" + (i % 2))).isInstanceOf(TokenCheck.Verified.class);
    }
    assertThat(discoveries).hasValue(1);
    assertThat(questions).hasValue(2);
  }

  @Test
  void aJwtIsVerifiedHereUnlessEveryTokenIsIntrospected() {
    script.set(new Script(200, active(), Duration.ZERO));
    String jwt =
        "eyJhbGciOiJSUzI1NiIsImtpZCI6Im5vbmUifQ.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl"; // unverifiable
    assertThat(verifier().verify(jwt)).isNotInstanceOf(TokenCheck.Verified.class);
    assertThat(questions).hasValue(0);
    assertThat(verifier(Optional.empty(), true).verify(jwt))
        .isInstanceOf(TokenCheck.Verified.class);
    assertThat(questions).hasValue(1);
  }

  @Test
  void aGivenEndpointIsUsedWithoutDiscovery() {
    script.set(new Script(200, active(), Duration.ZERO));
    discovery.set(null);
    assertThat(verifier(Optional.of(URI.create(issuer() + "/introspect")), false).verify("opaque"))
        .isInstanceOf(TokenCheck.Verified.class);
    assertThat(discoveries).hasValue(0);
  }

  @Test
  void anInactiveAnswerIsARejection() {
    script.set(new Script(200, "{\"active\":false}", Duration.ZERO));
    assertThat(verifier().verify("revoked")).isInstanceOf(TokenCheck.Rejected.class);
  }

  @Test
  void refusedClientCredentialsMakeTheTokenUncheckableAndSaySo() {
    script.set(
        new Script(
            401,
            "{\"error\":\"invalid_client\",\"error_description\":\"Invalid client\"}",
            Duration.ZERO));
    assertThat(unavailable(verifier().verify("opaque")))
        .isEqualTo(
            "the introspection endpoint "
                + issuer()
                + "/introspect refused svc's client credentials (HTTP 401, error `invalid_client`):"
                + " check server.auth.policy.introspection client_id and client_secret, and that the"
                + " client may introspect tokens")
        .doesNotContain("s3cr");
  }

  @Test
  void aServerErrorMalformedJsonOrAHugeAnswerMakeTheTokenUncheckable() {
    script.set(new Script(500, "oops", Duration.ZERO));
    assertThat(unavailable(verifier().verify("opaque")))
        .isEqualTo("the introspection endpoint " + issuer() + "/introspect answered HTTP 500");
    script.set(new Script(200, "{\"active\":tru", Duration.ZERO));
    assertThat(unavailable(verifier().verify("opaque")))
        .endsWith("/introspect answered something that is not JSON");
    script.set(new Script(200, "{\"active\":true}", Duration.ZERO));
    script.set(
        new Script(
            200, "{\"active\":false,\"pad\":\"" + "x".repeat(70_000) + "\"}", Duration.ZERO));
    assertThat(unavailable(verifier().verify("opaque")))
        .endsWith("/introspect answered more than 65536 bytes");
    script.set(new Script(200, "{}", Duration.ZERO));
    assertThat(unavailable(verifier().verify("opaque")))
        .isEqualTo("the introspection endpoint's answer has no boolean `active`");
  }

  @Test
  void aSlowEndpointTimesOutAfterFiveSeconds() {
    script.set(new Script(200, active(), Duration.ofSeconds(30)));
    long started = System.nanoTime();
    assertThat(unavailable(verifier().verify("opaque")))
        .isEqualTo(
            "the introspection endpoint " + issuer() + "/introspect did not answer within 5 s");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void anEndpointDribblingItsAnswerIsCutOffAfterFiveSecondsAllTold() {
    // before: the 5 s bounded the wait for the headers only; an answer of one byte a second held
    // the request (and a permit of every introspection) for the minute the dribble lasted
    long started = System.nanoTime();
    TokenCheck check =
        verifier(Optional.of(URI.create(issuer() + "/dribble")), false).verify("opaque");
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    assertThat(unavailable(check))
        .isEqualTo("the introspection endpoint " + issuer() + "/dribble did not answer within 5 s");
    assertThat(took).isBetween(Duration.ofSeconds(4), Duration.ofSeconds(15));
  }

  @Test
  void anUnreachableEndpointAndARedirectAreNotFollowed() throws IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    assertThat(
            unavailable(
                verifier(Optional.of(URI.create("http://127.0.0.1:" + closed + "/i")), false)
                    .verify("opaque")))
        .isEqualTo(
            "cannot reach the introspection endpoint http://127.0.0.1:"
                + closed
                + "/i: connection refused");
    script.set(new Script(200, active(), Duration.ZERO));
    assertThat(
            unavailable(
                verifier(Optional.of(URI.create(issuer() + "/moved")), false).verify("opaque")))
        .endsWith("/moved answered HTTP 307");
    assertThat(questions).hasValue(0);
  }

  @Test
  void aDiscoveryDocumentWithoutTheEndpointOrForAnotherIssuerSaysWhatToDo() {
    discovery.set("{\"issuer\":\"" + issuer() + "\"}");
    assertThat(unavailable(verifier().verify("opaque")))
        .endsWith("names no introspection_endpoint: set server.auth.policy.introspection.endpoint");
    discovery.set("{\"issuer\":\"https://elsewhere.example.com\"}");
    assertThat(unavailable(verifier().verify("opaque")))
        .contains("names the issuer `https://elsewhere.example.com`");
  }
}

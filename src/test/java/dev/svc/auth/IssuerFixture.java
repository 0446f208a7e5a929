package dev.svc.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A tiny authorization server for tests: real HTTP on a free loopback port, serving an OpenID
 * discovery document and a JWKS of keys made here, and signing tokens with them.
 */
public final class IssuerFixture implements AutoCloseable {
  public static final String AUDIENCE = "https://svc.test/mcp";

  private final HttpServer server;
  private final List<JWK> published = new CopyOnWriteArrayList<>();
  private final AtomicInteger keyFetches = new AtomicInteger();
  private volatile boolean keysFailing;
  private volatile boolean keysDribbling;
  private final AtomicInteger discoveryFetches = new AtomicInteger();
  public final RSAKey rsa;
  public final ECKey ec;

  public IssuerFixture() {
    try {
      rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
      ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
      published.add(rsa.toPublicJWK());
      published.add(ec.toPublicJWK());
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (JOSEException | IOException e) {
      throw new IllegalStateException(e);
    }
    server.createContext(
        "/.well-known/openid-configuration",
        exchange -> {
          discoveryFetches.incrementAndGet();
          byte[] body =
              ("{\"issuer\":\"" + issuer() + "\",\"jwks_uri\":\"" + issuer() + "/jwks\"}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.createContext(
        "/jwks",
        exchange -> {
          keyFetches.incrementAndGet();
          if (keysDribbling) {
            // the headers at once, then one byte a second for a minute
            exchange.sendResponseHeaders(200, 0);
            try (var out = exchange.getResponseBody()) {
              out.write("{\"keys\":[".getBytes(StandardCharsets.UTF_8));
              out.flush();
              for (int i = 0; i < 60; i++) {
                Thread.sleep(1000);
                out.write(' ');
                out.flush();
              }
              out.write("]}".getBytes(StandardCharsets.UTF_8));
            } catch (IOException | InterruptedException e) {
              // the client hung up
            }
            return;
          }
          if (keysFailing) {
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
            return;
          }
          byte[] body =
              new JWKSet(new ArrayList<>(published)).toString().getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  public String issuer() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public OAuthPolicy policy(List<String> scopes) {
    return new OAuthPolicy(issuer(), AUDIENCE, scopes, java.util.Optional.empty());
  }

  public void publish(JWK key) {
    published.add(key.toPublicJWK());
  }

  /** From now on the key set answers 500 (true) or its keys again (false). */
  public void failKeys(boolean failing) {
    keysFailing = failing;
  }

  /** From now on the key set answers its headers, then a byte a second for a minute (true). */
  public void dribbleKeys(boolean dribbling) {
    keysDribbling = dribbling;
  }

  public int keyFetches() {
    return keyFetches.get();
  }

  public int discoveryFetches() {
    return discoveryFetches.get();
  }

  /** Claims of a good token for {@code subject}, valid for five minutes from {@code now}. */
  public JWTClaimsSet.Builder claims(String subject, Instant now) {
    return new JWTClaimsSet.Builder()
        .issuer(issuer())
        .audience(List.of(AUDIENCE, "account"))
        .subject(subject)
        .issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(300)))
        .claim("scope", "mcp:tools profile");
  }

  public String rsaToken(JWTClaimsSet claims) {
    return sign(
        new JWSHeader.Builder(JWSAlgorithm.RS256)
            .keyID(rsa.getKeyID())
            .type(JOSEObjectType.JWT)
            .build(),
        claims,
        rsa);
  }

  public String sign(JWSHeader header, JWTClaimsSet claims, JWK key) {
    try {
      SignedJWT jwt = new SignedJWT(header, claims);
      switch (key) {
        case RSAKey r -> jwt.sign(new RSASSASigner(r));
        case ECKey e -> jwt.sign(new ECDSASigner(e));
        default -> throw new IllegalArgumentException("no signer for " + key.getKeyType());
      }
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  public static String hmacToken(JWTClaimsSet claims, byte[] secret) {
    try {
      SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
      jwt.sign(new MACSigner(secret));
      return jwt.serialize();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Replaces the token's payload (keeping header and signature), as a forger would. */
  public static String tampered(String token, UnaryOperator<String> payload) {
    String[] parts = token.split("\\.");
    String json =
        new String(java.util.Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
    String forged =
        java.util.Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(payload.apply(json).getBytes(StandardCharsets.UTF_8));
    return parts[0] + "." + forged + "." + parts[2];
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

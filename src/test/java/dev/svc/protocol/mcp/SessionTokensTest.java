package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Signed session ids: what they carry, and that ids of the first layout stay valid. */
class SessionTokensTest {
  private final SessionTokens tokens = SessionTokens.create(Optional.of("shared-key"));

  @Test
  void aSessionIdCarriesTheClientsAskableCapabilitiesToEveryInstanceWithTheKey() {
    String id =
        tokens.issue("2025-11-25", 1_000, new ClientCapabilities(Set.of("elicitation", "roots")));

    SessionTokens.Claims claims =
        SessionTokens.create(Optional.of("shared-key")).verify(id).orElseThrow();
    assertThat(claims.protocolVersion()).isEqualTo("2025-11-25");
    assertThat(claims.issuedAtSeconds()).isEqualTo(1_000);
    assertThat(claims.client().declared()).containsExactlyInAnyOrder("elicitation", "roots");
    assertThat(SessionTokens.create(Optional.of("other-key")).verify(id)).isEmpty();
  }

  @Test
  void anOwnedSessionIdVerifiesOnlyForItsOwnerOnEveryInstance() {
    String id =
        tokens.issue("2025-11-25", 1_000, ClientCapabilities.NONE, Optional.of("oauth:alice"));
    SessionTokens sibling = SessionTokens.create(Optional.of("shared-key"));
    assertThat(sibling.verify(id, Optional.of("oauth:alice"))).isPresent();
    assertThat(sibling.verify(id, Optional.of("oauth:bob"))).isEmpty();
    assertThat(sibling.verify(id)).as("nor without an owner").isEmpty();
    String unowned = tokens.issue("2025-11-25", 1_000);
    assertThat(sibling.verify(unowned, Optional.of("oauth:alice"))).isEmpty();
    assertThat(sibling.verify(unowned)).isPresent();
  }

  @Test
  void aSessionIdWithoutCapabilitiesDeclaresNone() {
    String id = tokens.issue("2025-06-18", 5);
    assertThat(tokens.verify(id).orElseThrow().client()).isEqualTo(ClientCapabilities.NONE);
  }

  @Test
  void anIdOfTheFirstLayoutIsStillValidAndDeclaresNothing() throws Exception {
    // layout 1: "1.<version>.<issued>.<nonce>", as svc issued ids before capabilities
    Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
    String body =
        encoder.encodeToString("1.2025-11-25.42.AAAAAAAAAAAA".getBytes(StandardCharsets.UTF_8));
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec("shared-key".getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    byte[] signature =
        java.util.Arrays.copyOf(mac.doFinal(body.getBytes(StandardCharsets.US_ASCII)), 16);
    String id = body + "." + encoder.encodeToString(signature);

    SessionTokens.Claims claims = tokens.verify(id).orElseThrow();
    assertThat(claims.protocolVersion()).isEqualTo("2025-11-25");
    assertThat(claims.issuedAtSeconds()).isEqualTo(42);
    assertThat(claims.client()).isEqualTo(ClientCapabilities.NONE);
  }

  @Test
  void onlyObjectValuedAskableCapabilitiesCount() {
    ClientCapabilities caps =
        ClientCapabilities.of(
            JsonMapper.builder()
                .build()
                .readTree(
                    "{\"elicitation\":{\"form\":{}},\"sampling\":true,\"roots\":{\"listChanged\":true},"
                        + "\"experimental\":{}}"));
    assertThat(caps.declared()).containsExactlyInAnyOrder("elicitation", "roots");
    assertThat(ClientCapabilities.of(null)).isEqualTo(ClientCapabilities.NONE);
  }

  @Test
  void onlyTheSpellingIssuedVerifies() {
    String id = tokens.issue("2025-11-25", 1_000);
    String signature = id.substring(id.lastIndexOf('.') + 1);
    byte[] bytes = Base64.getUrlDecoder().decode(signature);
    String stem = id.substring(0, id.lastIndexOf('.') + 1);

    assertThat(tokens.verify(id)).isPresent();
    assertThat(tokens.verify(id + "==")).as("padded").isEmpty();
    assertThat(tokens.verify(stem + Base64.getUrlEncoder().encodeToString(bytes)))
        .as("padded by the encoder")
        .isEmpty();
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char last = signature.charAt(signature.length() - 1);
    String respelled =
        stem
            + signature.substring(0, signature.length() - 1)
            + alphabet.charAt(alphabet.indexOf(last) ^ 1);
    assertThat(Base64.getUrlDecoder().decode(respelled.substring(stem.length()))).isEqualTo(bytes);
    assertThat(tokens.verify(respelled)).as("the unused low bits of the last character").isEmpty();
  }
}

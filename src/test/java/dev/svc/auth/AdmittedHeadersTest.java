package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.VerifiedToken;
import dev.svc.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AdmittedHeadersTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final VerifiedToken alice =
      new VerifiedToken("alice", Set.of("mcp:tools"), clock.instant().plusSeconds(300));

  @Test
  void aPlainHeaderIsRememberedUntilItsTokenExpires() {
    AdmittedHeaders headers = new AdmittedHeaders(clock);
    headers.remember("Bearer abc.def.ghi", alice);
    headers.remember("bearer xyz", alice);
    assertThat(headers.find("Bearer abc.def.ghi")).contains(alice);
    assertThat(headers.find("bearer xyz")).contains(alice);
    clock.advance(Duration.ofSeconds(300).plus(TokenVerifier.LEEWAY));
    assertThat(headers.find("Bearer abc.def.ghi")).isEmpty();
  }

  @Test
  void aPaddedHeaderIsNotRemembered() {
    // before: every padding of one valid token was an entry of its own, up to the 8 KiB header
    // limit each: 10,000 of them kept about 80 MB
    AdmittedHeaders headers = new AdmittedHeaders(clock);
    String padded = "Bearer " + " ".repeat(8000) + "abc.def.ghi";
    String trailing = "Bearer abc.def.ghi" + " ".repeat(8000);
    headers.remember(padded, alice);
    headers.remember(trailing, alice);
    assertThat(headers.find(padded)).isEmpty();
    assertThat(headers.find(trailing)).isEmpty();
  }
}

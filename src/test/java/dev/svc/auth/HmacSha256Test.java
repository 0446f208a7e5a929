package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Mac;
import org.junit.jupiter.api.Test;

class HmacSha256Test {
  @Test
  void signsAsRfc4231sFirstTestCase() {
    byte[] key = new byte[20];
    Arrays.fill(key, (byte) 0x0b);

    assertThat(
            HexFormat.of()
                .formatHex(HmacSha256.sign(key, "Hi There".getBytes(StandardCharsets.US_ASCII))))
        .isEqualTo("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  }

  @Test
  void aKeyedMacTakesTheMessageInParts_fromSunJce() {
    Mac mac = HmacSha256.keyed("Jefe".getBytes(StandardCharsets.US_ASCII));
    mac.update("what do ya want ".getBytes(StandardCharsets.US_ASCII));
    mac.update("for nothing?".getBytes(StandardCharsets.US_ASCII));

    assertThat(HexFormat.of().formatHex(mac.doFinal()))
        .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    assertThat(mac.getProvider().getName()).isEqualTo("SunJCE");
  }
}

package dev.svc.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class HmacSha256Test {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void signsAsRfc4231sTestCases() {
    assertThat(hmac(filled(20, 0x0b), ascii("Hi There")))
        .isEqualTo("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    assertThat(hmac(ascii("Jefe"), ascii("what do ya want for nothing?")))
        .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    assertThat(hmac(filled(20, 0xaa), filled(50, 0xdd)))
        .isEqualTo("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
    assertThat(
            hmac(
                HEX.parseHex("0102030405060708090a0b0c0d0e0f10111213141516171819"),
                filled(50, 0xcd)))
        .isEqualTo("82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
    // a key longer than the block: hashed first
    assertThat(
            hmac(
                filled(131, 0xaa), ascii("Test Using Larger Than Block-Size Key - Hash Key First")))
        .isEqualTo("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    assertThat(
            hmac(
                filled(131, 0xaa),
                ascii(
                    "This is a test using a larger than block-size key and a larger than"
                        + " block-size data. The key needs to be hashed before being used by the"
                        + " HMAC algorithm.")))
        .isEqualTo("9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
  }

  @Test
  void agreesWithTheJdksMacForKeysAndMessagesOfEveryLength() throws Exception {
    Random random = new Random(42);
    for (int keyLength = 1; keyLength <= 140; keyLength += 3) {
      for (int messageLength : new int[] {0, 1, 55, 56, 63, 64, 65, 119, 200}) {
        byte[] key = new byte[keyLength];
        byte[] message = new byte[messageLength + 7];
        random.nextBytes(key);
        random.nextBytes(message);
        Mac jdk = Mac.getInstance("HmacSHA256");
        jdk.init(new SecretKeySpec(key, "HmacSHA256"));
        jdk.update(message, 3, messageLength);

        assertThat(HmacSha256.sign(key, message, 3, messageLength))
            .as("key of %d bytes, message of %d", keyLength, messageLength)
            .isEqualTo(jdk.doFinal());
      }
    }
  }

  private static String hmac(byte[] key, byte[] message) {
    return HEX.formatHex(HmacSha256.sign(key, message));
  }

  private static byte[] filled(int length, int value) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) value);
    return bytes;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}

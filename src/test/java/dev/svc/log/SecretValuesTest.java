package dev.svc.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SecretValuesTest {
  private static final List<String> SECRETS =
      List.of("Bearer sk-LEAKCANARY1234567890abcdef", "PLUGSECRET-0123456789");

  @Test
  void aWholeSecretIsReplacedAndTheBearerSchemeKept() {
    assertThat(
            SecretValues.removedFrom(
                "Invalid API key provided: Bearer sk-LEAKCANARY1234567890abcdef", SECRETS))
        .isEqualTo("Invalid API key provided: Bearer [redacted]");
  }

  @Test
  void thePiecesV8CutFromALongSecretToQuoteItAreReplacedToo() {
    // JSON.parse of a long text quotes ten characters either side of where it failed
    assertThat(
            SecretValues.removedFrom(
                "SyntaxError: Unexpected token 'B', \"Bearer sk-\"... is not valid JSON", SECRETS))
        .isEqualTo("SyntaxError: Unexpected token 'B', \"[redacted]\"... is not valid JSON");
    assertThat(
            SecretValues.removedFrom(
                "Unexpected token 'L', ...\"Bearer sk-LEAKCANARY\"... is not valid JSON", SECRETS))
        .isEqualTo("Unexpected token 'L', ...\"[redacted]\"... is not valid JSON");
    assertThat(
            SecretValues.removedFrom(
                "Unexpected end of JSON input: ...\"0123456789\" is not valid JSON", SECRETS))
        .isEqualTo("Unexpected end of JSON input: ...\"[redacted]\" is not valid JSON");
  }

  @Test
  void cutQuotesOfOtherTextAndShortPiecesStay() {
    String other = "Unexpected token 'h', \"hello worl\"... is not valid JSON";
    assertThat(SecretValues.removedFrom(other, SECRETS)).isEqualTo(other);
    String shortPiece = "Unexpected token 'x', ...\"sk-\"... is not valid JSON";
    assertThat(SecretValues.removedFrom(shortPiece, SECRETS)).isEqualTo(shortPiece);
    String noEllipsis = "\"Bearer sk-\" is what it starts with";
    assertThat(SecretValues.removedFrom(noEllipsis, SECRETS)).isEqualTo(noEllipsis);
  }
}

package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class McpHeaderValueTest {
  @Test
  void aPlainValueIsItselfWithoutSurroundingWhitespace() {
    assertThat(McpHeaderValue.decode("tools/call")).contains("tools/call");
    assertThat(McpHeaderValue.decode("  get_weather\t")).contains("get_weather");
    assertThat(McpHeaderValue.decode("a b")).contains("a b");
  }

  @Test
  void aBase64ValueIsDecodedAsUtf8() {
    // "Grüße" and " padded " in UTF-8
    assertThat(McpHeaderValue.decode("=?base64?R3LDvMOfZQ==?=")).contains("Grüße");
    assertThat(McpHeaderValue.decode("=?base64?IHBhZGRlZCA=?=")).contains(" padded ");
    assertThat(McpHeaderValue.decode("=?base64??=")).contains("");
  }

  @Test
  void controlCharactersNonAsciiAndBrokenEncodingsAreNotValues() {
    assertThat(McpHeaderValue.decode("a\u0001b")).isEmpty();
    assertThat(McpHeaderValue.decode("grüße")).isEmpty();
    assertThat(McpHeaderValue.decode("=?base64?***?=")).isEmpty();
    assertThat(McpHeaderValue.decode("=?base64?SGVsbG8?=")).as("padding missing").isEmpty();
    assertThat(McpHeaderValue.decode("=?base64?SGVs!!!bG8=?=")).isEmpty();
    assertThat(McpHeaderValue.decode("=?base64?/w==?=")).as("0xFF is not UTF-8").isEmpty();
  }

  @Test
  void aValueWithOnlyOneOfTheMarkersIsLiteral() {
    assertThat(McpHeaderValue.decode("=?base64?SGVsbG8=")).contains("=?base64?SGVsbG8=");
    assertThat(McpHeaderValue.decode("SGVsbG8=")).contains("SGVsbG8=");
  }

  @Test
  void theMarkersAreCaseSensitive() {
    assertThat(McpHeaderValue.decode("=?BASE64?YQ==?=")).contains("=?BASE64?YQ==?=");
  }
}

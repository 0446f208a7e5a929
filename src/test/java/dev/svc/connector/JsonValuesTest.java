package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;

class JsonValuesTest {

  @Test
  void decimalsKeepTheirScaleAndIntegersStayPlain() {
    assertThat(JsonValues.decimal(new BigDecimal("12.50")).toString()).isEqualTo("12.50");
    assertThat(JsonValues.decimal(new BigDecimal("1E+3")).toString()).isEqualTo("1000");
  }

  @Test
  void nonFiniteFloatsBecomeStrings() {
    assertThat(JsonValues.number(Double.NaN).toString()).isEqualTo("\"NaN\"");
    assertThat(JsonValues.number(Double.NEGATIVE_INFINITY).toString()).isEqualTo("\"-Infinity\"");
    assertThat(JsonValues.number(0.1).toString()).isEqualTo("0.1");
  }

  @Test
  void dateTimesAreIsoWithSecondsAlwaysWritten() {
    assertThat(JsonValues.iso(LocalDateTime.parse("2024-05-01T10:00")))
        .isEqualTo("2024-05-01T10:00:00");
    assertThat(JsonValues.iso(OffsetDateTime.parse("2024-05-01T10:00Z")))
        .isEqualTo("2024-05-01T10:00:00Z");
    assertThat(JsonValues.iso(LocalDate.parse("2024-05-01"))).isEqualTo("2024-05-01");
  }

  @Test
  void dynamicValuesMapByTheirJavaType() {
    assertThat(JsonValues.of(null).isNull()).isTrue();
    assertThat(JsonValues.of(42).toString()).isEqualTo("42");
    assertThat(JsonValues.of(1.5f).toString()).isEqualTo("1.5");
    assertThat(JsonValues.of(new byte[] {0, (byte) 0xff, 0x10}).toString()).isEqualTo("\"AP8Q\"");
    assertThat(JsonValues.of(new Object[] {1L, "a", null}).toString()).isEqualTo("[1,\"a\",null]");
  }

  @Test
  void valuesBoundInsideLiteralsUseTheirText() {
    assertThat(ParameterBinder.text(new BigDecimal("1E+3"))).isEqualTo("1000");
    assertThat(ParameterBinder.text(OffsetDateTime.parse("2024-05-01T10:00Z")))
        .isEqualTo("2024-05-01T10:00:00Z");
    assertThat(ParameterBinder.text(JsonNodeFactory.instance.stringNode("x"))).isEqualTo("x");
    assertThat(ParameterBinder.text(42L)).isEqualTo("42");
  }
}

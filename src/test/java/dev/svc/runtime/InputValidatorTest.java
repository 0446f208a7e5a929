package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.model.InputType;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Numbers at the edges of what a typed input takes. Request bodies never carry infinity (the
 * JSON-RPC reader refuses numbers beyond a double's range), but an agent's model writes its tool
 * arguments through the plain reader, where {@code 1e400} is infinity.
 */
class InputValidatorTest {
  private static Optional<JsonNode> convert(InputType type, String json) {
    return InputValidator.convert(type, Json.MAPPER.readTree(json));
  }

  @Test
  void infinityIsNeitherAnIntegerNorAFloat() {
    assertThat(convert(InputType.INT, "1e400")).isEmpty();
    assertThat(convert(InputType.INT, "-1e400")).isEmpty();
    assertThat(convert(InputType.FLOAT, "1e400")).isEmpty();
    assertThat(convert(InputType.FLOAT, "-1e400")).isEmpty();
    assertThat(convert(InputType.FLOAT, "\"1e400\"")).isEmpty();
    assertThat(convert(InputType.FLOAT, "\"Infinity\"")).isEmpty();
    assertThat(convert(InputType.FLOAT, "\"NaN\"")).isEmpty();
  }

  @Test
  void anIntegerWrittenAsAFloatIsTakenWhenItIsWholeAndFitsALong() {
    assertThat(convert(InputType.INT, "1e2")).contains(Json.NODES.numberNode(100L));
    assertThat(convert(InputType.INT, "100.0")).contains(Json.NODES.numberNode(100L));
    assertThat(convert(InputType.INT, "1e300")).isEmpty();
    assertThat(convert(InputType.INT, "123456789012345678901234567890")).isEmpty();
    assertThat(convert(InputType.INT, "1.5")).isEmpty();
  }

  @Test
  void theLargestFiniteFloatsAreFloats() {
    assertThat(convert(InputType.FLOAT, "1.7976931348623157e308"))
        .contains(Json.NODES.numberNode(Double.MAX_VALUE));
    assertThat(convert(InputType.FLOAT, "4.9e-324"))
        .contains(Json.NODES.numberNode(Double.MIN_VALUE));
  }
}

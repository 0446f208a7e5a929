package dev.svc.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import org.junit.jupiter.api.Test;

class GeminiSchemaTest {
  @Test
  void parametersKeepTheOpenApiSubsetAndTellDefaultsInTheDescription() {
    var schema =
        Json.MAPPER.readTree(
            "{\"type\":\"object\",\"properties\":{\"when\":{\"type\":\"string\",\"format\":\"date-time\"},"
                + "\"n\":{\"type\":\"integer\",\"description\":\"How many.\",\"default\":3},"
                + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"format\":\"uri\"}}},"
                + "\"required\":[\"when\"],\"additionalProperties\":false}");
    assertThat(GeminiClient.openApiSchema(schema).toString())
        .isEqualTo(
            "{\"type\":\"object\",\"required\":[\"when\"],\"properties\":{"
                + "\"when\":{\"type\":\"string\",\"format\":\"date-time\"},"
                + "\"n\":{\"type\":\"integer\",\"description\":\"How many. (default: 3)\"},"
                + "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}");
  }
}

package dev.svc.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The schemas under {@code schema/} are generated from {@link Shapes}. Regenerate them with {@code
 * mvn -q test -Dtest=EditorSchemasTest -Dsvc.updateSchemas=true}.
 */
class EditorSchemasTest {
  private static final Path DIRECTORY = Path.of("schema");

  @Test
  void checkedInSchemasMatchTheShapesTheLoaderUses() throws IOException {
    Map<String, String> generated = EditorSchemas.all();
    if (Boolean.getBoolean("svc.updateSchemas")) {
      Files.createDirectories(DIRECTORY);
      for (Map.Entry<String, String> file : generated.entrySet()) {
        Files.writeString(DIRECTORY.resolve(file.getKey()), file.getValue());
      }
    }
    for (Map.Entry<String, String> file : generated.entrySet()) {
      Path path = DIRECTORY.resolve(file.getKey());
      assertThat(path)
          .as(
              "schema/%s is missing or out of date; regenerate with "
                  + "mvn -q test -Dtest=EditorSchemasTest -Dsvc.updateSchemas=true",
              file.getKey())
          .exists()
          .hasContent(file.getValue());
    }
  }

  @Test
  void thereIsOneSchemaPerFileKind() {
    assertThat(EditorSchemas.all().keySet())
        .containsExactly(
            "root.terse.schema.json",
            "adapter.terse.schema.json",
            "tool.terse.schema.json",
            "agent.terse.schema.json",
            "prompt.terse.schema.json",
            "resource.terse.schema.json",
            "tests.terse.schema.json",
            "prompt-tests.terse.schema.json",
            "resource-tests.terse.schema.json",
            "agent-tests.terse.schema.json");
  }

  @Test
  void definitionFilesRejectUnknownKeysAndRequireWhatTheLoaderRequires() {
    JsonNode tool =
        JsonMapper.builder().build().readTree(EditorSchemas.all().get("tool.terse.schema.json"));
    assertThat(tool.path("additionalProperties").asBoolean(true)).isFalse();
    assertThat(tool.path("required").toString()).isEqualTo("[\"description\"]");
    assertThat(
            tool.path("properties")
                .path("inputs")
                .path("additionalProperties")
                .path("$ref")
                .asString())
        .isEqualTo("#/definitions/input");
  }

  @Test
  void theToolSchemaOffersReadOnlyAnnotationsAndAFreeFormOutputSchema() {
    JsonNode tool =
        JsonMapper.builder().build().readTree(EditorSchemas.all().get("tool.terse.schema.json"));
    JsonNode properties = tool.path("properties");
    assertThat(properties.path("read_only").path("type").asString()).isEqualTo("boolean");
    assertThat(properties.path("annotations").path("$ref").asString())
        .isEqualTo("#/definitions/annotations");
    assertThat(tool.path("definitions").path("annotations").path("properties").propertyNames())
        .containsExactly(
            "title", "read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint");
    assertThat(properties.path("output_schema").path("type").asString()).isEqualTo("object");
    assertThat(properties.path("output_schema").has("additionalProperties")).isFalse();
  }
}

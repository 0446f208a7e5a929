package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.model.Tool;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an audit line shows of a call's arguments: values redacted, and what the caller chooses
 * (keys, shown values) bounded, so a request of megabytes does not make an audit line of megabytes.
 */
class AuditArgumentsTest {
  @TempDir Path dir;

  private Tool tool() {
    return ProjectFixture.model(
            dir,
            """
            == .svc
            name: shop
            == app/adapters/shop.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/find/config.terse
            description: Finds.
            use: shop
            statement: SELECT {{ inputs.id }} AS id, {{ inputs.note }} AS note
            inputs:
              id: {type: string, description: Id., redact: false}
              note: {type: string, description: Note.}
            """)
        .tool("find")
        .orElseThrow();
  }

  @Test
  void valuesAreRedactedUnlessTheirInputIsMarkedSafe() {
    JsonNode shown =
        AuditArguments.redact(
            Optional.of(tool()), Json.MAPPER.readTree("{\"id\":\"7\",\"note\":\"sk-live-1\"}"));

    assertThat(shown.toString()).isEqualTo("{\"id\":\"7\",\"note\":\"[redacted]\"}");
  }

  @Test
  void aHugeKeyIsCutAndManyKeysAreCounted() {
    ObjectNode arguments = Json.NODES.objectNode();
    arguments.put("k".repeat(4_000_000), 1);
    for (int i = 0; i < 100_000; i++) {
      arguments.put("x" + i, i);
    }

    String shown = AuditArguments.redact(Optional.of(tool()), arguments).toString();

    assertThat(shown).hasSizeLessThan(20_000);
    assertThat(shown).startsWith("{\"" + "k".repeat(128) + "…\":\"[redacted]\"");
    assertThat(shown).endsWith("\"…\":\"99937 more keys\"}");
  }

  @Test
  void aHugeValueOfASafeInputStandsAsItsLength() {
    ObjectNode arguments = Json.NODES.objectNode();
    arguments.put("id", "9".repeat(2_000_000));

    assertThat(AuditArguments.redact(Optional.of(tool()), arguments).toString())
        .isEqualTo("{\"id\":\"[2000002 characters]\"}");
  }
}

package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Execution;
import dev.svc.model.Model;
import dev.svc.model.Statement;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompilerTest {
  @TempDir Path dir;

  @Test
  void aValidProjectCompilesToASortedModel() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shop
            == app/adapters/db.terse
            connector: sqlite
            connection_string: "file:./shop.db"
            == app/tools/get_item/config.terse
            description: One item by id.
            use: db
            statement: SELECT id, name FROM items WHERE id = {{ inputs.id }}
            inputs:
              id: {type: int, description: Item id}
            == app/tools/add/config.terse
            description: Adds.
            handler: handler.ts
            == app/tools/add/handler.ts
            export default () => 1;
            """);

    assertThat(model.service().name()).isEqualTo("shop");
    assertThat(model.tools()).extracting(t -> t.name()).containsExactly("add", "get_item");
    Execution.OnAdapter onAdapter =
        (Execution.OnAdapter) model.tool("get_item").orElseThrow().execution();
    Statement.Sql sql = (Statement.Sql) onAdapter.statement();
    assertThat(sql.sql()).isEqualTo("SELECT id, name FROM items WHERE id = ?");
    assertThat(sql.parameters()).extracting(Statement.Parameter::input).containsExactly("id");
  }

  @Test
  void aToolUsingAnUnknownAdapterIsReportedWithItsPosition() {
    assertThat(
            ProjectFixture.diagnostics(
                dir,
                """
                == .svc
                name: shop
                == app/adapters/db.terse
                connector: sqlite
                connection_string: ":memory:"
                == app/tools/t/config.terse
                description: T.
                use: dbb
                statement: SELECT 1
                """))
        .containsExactly(
            "app/tools/t/config.terse:2:6: error[unknown-adapter]: no adapter is named `dbb`");
  }
}

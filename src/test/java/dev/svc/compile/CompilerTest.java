package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Execution;
import dev.svc.model.Model;
import dev.svc.model.ResultCaps;
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
  void resultCapsDefaultTo1000RowsAnd1MiBAndAToolsOwnCapOverridesTheGlobalOne() {
    String tools =
        """
        == app/tools/plain/config.terse
        description: Plain.
        handler: handler.ts
        == app/tools/plain/handler.ts
        export default () => 1;
        == app/tools/own/config.terse
        description: Its own row cap.
        handler: handler.ts
        max_rows: 0
        == app/tools/own/handler.ts
        export default () => 1;
        """;
    Model defaults = ProjectFixture.model(dir.resolve("a"), "== .svc\nname: shop\n" + tools);
    assertThat(defaults.service().defaultCaps()).isEqualTo(new ResultCaps(1000, 1048576));
    assertThat(defaults.tool("plain").orElseThrow().caps()).isEqualTo(ResultCaps.DEFAULTS);
    assertThat(defaults.tool("own").orElseThrow().caps()).isEqualTo(new ResultCaps(0, 1048576));

    Model global =
        ProjectFixture.model(
            dir.resolve("b"),
            "== .svc\nname: shop\ntools:\n  max_rows: 20\n  max_bytes: 5000\n" + tools);
    assertThat(global.service().defaultCaps()).isEqualTo(new ResultCaps(20, 5000));
    assertThat(global.tool("plain").orElseThrow().caps()).isEqualTo(new ResultCaps(20, 5000));
    assertThat(global.tool("own").orElseThrow().caps()).isEqualTo(new ResultCaps(0, 5000));
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

package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.RuntimeLibraries.Part;
import dev.svc.model.Model;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeLibrariesTest {
  @TempDir Path dir;

  @Test
  void aSqliteProjectNeedsTheCoreAndSqliteOnly() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: lite
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/one/config.terse
            description: One.
            use: db
            statement: SELECT 1 AS one
            """);

    assertThat(RuntimeLibraries.needed(model)).containsExactlyInAnyOrder(Part.CORE, Part.SQLITE);
  }

  @Test
  void eachConnectorScriptsAndVertexAgentsBringTheirOwnPart() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: everything
            == app/adapters/pg.terse
            connector: postgres
            connection_string: "postgresql://localhost/app"
            == app/adapters/my.terse
            connector: mysql
            connection_string: "root@tcp(localhost:3306)/app"
            == app/adapters/mongo.terse
            connector: mongodb
            connection_string: "mongodb://localhost:27017"
            == app/adapters/kv.terse
            connector: redis
            connection_string: "redis://localhost:6379/0"
            == app/tools/shout/config.terse
            description: Shouts.
            handler: handler.ts
            inputs:
              text: {type: string}
            == app/tools/shout/handler.ts
            export default ({ inputs }: { inputs: { text: string } }) => ({ loud: inputs.text });
            == app/agents/helper/config.terse
            instruction: Help.
            model:
              provider: vertex
              model: gemini-2.5-flash
              options: {project: p, location: europe-west1}
            """);

    assertThat(RuntimeLibraries.needed(model))
        .isEqualTo(EnumSet.complementOf(EnumSet.of(Part.DEVELOPMENT, Part.SQLITE)));
  }

  @Test
  void aJarShipsWhenAPartItBelongsToIsNeeded_orWhenNoPartKnowsIt() {
    Set<Part> sqliteOnly = EnumSet.of(Part.CORE, Part.SQLITE);

    assertThat(RuntimeLibraries.ships("lib/sqlite-jdbc-3.54.1.0.jar", sqliteOnly)).isTrue();
    assertThat(RuntimeLibraries.ships("lib/jetty-server-12.1.14.jar", sqliteOnly)).isTrue();
    assertThat(RuntimeLibraries.ships("lib/postgresql-42.7.14.jar", sqliteOnly)).isFalse();
    assertThat(RuntimeLibraries.ships("lib/javet-v8-linux-x86_64-5.0.6.jar", sqliteOnly)).isFalse();
    assertThat(RuntimeLibraries.ships("lib/typescript-5.9.3.jar", sqliteOnly)).isFalse();
    // gson belongs to both Redis (Jedis) and Google's sign-in library
    assertThat(RuntimeLibraries.ships("lib/gson-2.14.0.jar", sqliteOnly)).isFalse();
    assertThat(RuntimeLibraries.ships("lib/gson-2.14.0.jar", EnumSet.of(Part.REDIS))).isTrue();
    assertThat(RuntimeLibraries.ships("lib/gson-2.14.0.jar", EnumSet.of(Part.GOOGLE_SIGN_IN)))
        .isTrue();
    assertThat(RuntimeLibraries.ships("lib/brand-new-library-1.0.jar", sqliteOnly)).isTrue();
  }

  @Test
  void theArtifactIdIsTheFileNameBeforeItsVersion() {
    assertThat(RuntimeLibraries.artifactId("lib/javet-v8-linux-x86_64-5.0.6.jar"))
        .isEqualTo("javet-v8-linux-x86_64");
    assertThat(RuntimeLibraries.artifactId("lib/linux-x64-0.25.10.jar")).isEqualTo("linux-x64");
    assertThat(RuntimeLibraries.artifactId("lib/json-20260719.jar")).isEqualTo("json");
    assertThat(
            RuntimeLibraries.artifactId(
                "lib/listenablefuture-9999.0-empty-to-avoid-conflict-with-guava.jar"))
        .isEqualTo("listenablefuture");
    assertThat(RuntimeLibraries.artifactId("lib/guava-33.6.0-jre.jar")).isEqualTo("guava");
    assertThat(RuntimeLibraries.artifactId("lib/javax.annotation-api-1.3.2.jar"))
        .isEqualTo("javax.annotation-api");
  }
}

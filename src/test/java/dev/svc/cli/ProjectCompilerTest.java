package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.project.Project;
import dev.svc.project.ProjectLocator;
import dev.svc.testing.ProjectFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code svc start} compiles with: the model, and the type declarations beside it. */
class ProjectCompilerTest {
  @TempDir Path work;

  private static final String SCRIPTED =
      """
      == .svc
      name: shop
      == app/tools/hello/config.terse
      description: Says hello.
      inputs:
        name:
          description: Who.
      == app/tools/hello/handler.ts
      export default ({ inputs }: Svc.HandlerPayload<"hello">) => inputs.name;
      """;

  private CliContext context() {
    return new CliContext(
        work, Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
  }

  @Test
  void startingAProjectWithScriptsWritesItsTypeDeclarations() {
    ProjectFixture.write(work, SCRIPTED);
    Project project = ProjectLocator.locate(Optional.empty(), Optional.empty(), work);

    assertThat(ProjectCompiler.compiled(project, context())).isPresent();

    assertThat(work.resolve(".svc-types/svc.d.ts")).content().contains("name: string;");
    assertThat(work.resolve(".svc-types/sandbox.d.ts")).exists();
  }

  @Test
  void aProjectWhereTheDeclarationsCannotBeWrittenStillCompiles() throws Exception {
    ProjectFixture.write(work, SCRIPTED);
    Project project = ProjectLocator.locate(Optional.empty(), Optional.empty(), work);
    Files.writeString(work.resolve(".svc-types"), "a file where the directory would be\n");

    assertThat(ProjectCompiler.compiled(project, context())).isPresent();
    assertThat(work.resolve(".svc-types")).isRegularFile();
  }
}

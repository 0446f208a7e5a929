package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Model;
import dev.svc.model.Prompt;
import dev.svc.model.Resource;
import dev.svc.model.Tool;
import dev.svc.testing.ProjectFixture;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What svc makes of the files and links it finds while discovering definitions: links followed or
 * reported, hidden folders skipped, files too large or not UTF-8 refused with one error each.
 */
class ProjectFilesTest {
  @TempDir Path dir;

  /**
   * A Kubernetes ConfigMap volume is made of links (each file a link into {@code ..data}), and
   * people link shared folders into projects: both are followed like plain directories.
   */
  @Test
  void linkedDiscoveryDirectoriesAndFilesAreReadLikePlainOnes() throws Exception {
    Path shared =
        ProjectFixture.write(
            dir.resolve("shared"),
            """
            == prompts/team/review.terse
            messages: [{role: user, text: Review.}]
            == resources/guide/config.terse
            uri: docs://guide
            file: guide.md
            == resources/guide/guide.md
            # Guide
            == tools/hello/config.terse
            description: Says hello.
            == tools/hello/handler.ts
            export default () => 1;
            """);
    Path project = ProjectFixture.write(dir.resolve("project"), "== .svc\nname: shop\n");
    Files.createDirectories(project.resolve("app"));
    for (String kind : new String[] {"prompts", "resources", "tools"}) {
      Files.createSymbolicLink(project.resolve("app").resolve(kind), shared.resolve(kind));
    }

    Compilation compilation = ProjectFixture.compile(project);
    assertThat(compilation).isInstanceOf(Compilation.Success.class);
    Model model = ((Compilation.Success) compilation).model();

    assertThat(model.prompts()).extracting(Prompt::name).containsExactly("review");
    assertThat(model.resources()).extracting(Resource::name).containsExactly("guide");
    assertThat(model.tools()).extracting(Tool::name).containsExactly("hello");
  }

  @Test
  void aLinkToAFolderThatHoldsItIsOneWarningAndTheRestIsRead() throws Exception {
    ProjectFixture.write(
        dir,
        """
        == .svc
        name: shop
        == app/prompts/team/review.terse
        messages: [{role: user, text: Review.}]
        == app/resources/guide/config.terse
        uri: docs://guide
        text: "# Guide"
        """);
    Files.createSymbolicLink(dir.resolve("app/prompts/team/up"), Path.of(".."));
    Files.createSymbolicLink(dir.resolve("app/resources/guide/self"), Path.of("."));

    Compilation compilation = ProjectFixture.compile(dir);

    assertThat(compilation.diagnostics())
        .extracting(ProjectFixture::line)
        .containsExactly(
            "app/prompts/team/up: warning[link-loop]: `app/prompts/team/up` is a link to a folder"
                + " that holds it, so it is not followed",
            "app/resources/guide/self: warning[link-loop]: `app/resources/guide/self` is a link to"
                + " a folder that holds it, so it is not followed");
    Model model = ((Compilation.Success) compilation).model();
    assertThat(model.prompts()).extracting(Prompt::name).containsExactly("review");
    assertThat(model.resources()).extracting(Resource::name).containsExactly("guide");
  }

  @Test
  void aDefinitionThatIsALinkToNothingIsAWarningNotSilence() throws Exception {
    Path dir =
        ProjectFixture.write(
            this.dir,
            """
            == .svc
            name: shop
            == app/prompts/team/review.terse
            messages: [{role: user, text: Review.}]
            == app/tools/hello/handler.ts
            export default () => ({});
            """);
    Files.createSymbolicLink(dir.resolve("app/prompts/team/gone.terse"), Path.of("missing.terse"));
    Files.createDirectories(dir.resolve("app/adapters"));
    Files.createSymbolicLink(dir.resolve("app/adapters/db.terse"), Path.of("/nowhere/db.terse"));
    Files.createSymbolicLink(dir.resolve("app/tools/hello/config.terse"), Path.of("old.terse"));

    Compilation compilation = ProjectFixture.compile(dir);

    assertThat(compilation.diagnostics())
        .extracting(ProjectFixture::line)
        .containsExactlyInAnyOrder(
            "app/adapters/db.terse: warning[dangling-link]: `app/adapters/db.terse` is a link to"
                + " /nowhere/db.terse, which does not exist, so it is not read",
            "app/prompts/team/gone.terse: warning[dangling-link]: `app/prompts/team/gone.terse` is"
                + " a link to missing.terse, which does not exist, so it is not read",
            "app/tools/hello/config.terse: warning[dangling-link]: `app/tools/hello/config.terse`"
                + " is a link to old.terse, which does not exist, so it is not read");
  }

  @Test
  void hiddenDirectoriesAndNodeModulesAreSkippedWithoutWarnings() {
    Path project =
        ProjectFixture.write(
            dir,
            """
            == .svc
            name: shop
            == app/tools/hello/config.terse
            description: Says hello.
            == app/tools/hello/handler.ts
            export default () => 1;
            == app/tools/.draft/config.terse
            [not: valid yaml
            == app/tools/node_modules/left-pad/config.terse
            [not: valid yaml
            == app/tools/.git/HEAD
            ref: refs/heads/main
            == app/prompts/.cache/old.terse
            [not: valid yaml
            == app/prompts/node_modules/pkg/p.terse
            [not: valid yaml
            == app/resources/node_modules/pkg/config.terse
            [not: valid yaml
            == app/agents/.template/config.terse
            [not: valid yaml
            == app/adapters/.old.terse
            [not: valid yaml
            """);

    Compilation compilation = ProjectFixture.compile(project);

    assertThat(compilation.diagnostics()).isEmpty();
    assertThat(((Compilation.Success) compilation).model().tools())
        .extracting(Tool::name)
        .containsExactly("hello");
  }

  @Test
  void aFileTooLargeToBeADefinitionIsOneErrorAndIsNotRead() throws Exception {
    ProjectFixture.write(
        dir,
        """
        == .svc
        name: shop
        == app/tools/hello/handler.ts
        export default () => 1;
        """);
    // 3 GiB of nothing (a sparse file): more than a Java string can hold
    try (RandomAccessFile config =
        new RandomAccessFile(dir.resolve("app/tools/hello/config.terse").toFile(), "rw")) {
      config.setLength(3L << 30);
    }

    assertThat(ProjectFixture.compile(dir).diagnostics())
        .extracting(ProjectFixture::line)
        .containsExactly(
            "app/tools/hello/config.terse: error[yaml-syntax]: the file holds 3072 MiB; a"
                + " definition file may hold at most 3145728 characters");
  }

  @Test
  void aRootFileThatIsNotUtf8IsThatOneErrorNotAlsoAMissingName() throws Exception {
    ProjectFixture.write(
        dir,
        """
        == app/tools/hello/config.terse
        description: Says hello.
        == app/tools/hello/handler.ts
        export default () => 1;
        """);
    Files.write(
        dir.resolve(".svc"), new byte[] {'n', 'a', 'm', 'e', ':', ' ', (byte) 0xC3, (byte) 0x28});

    assertThat(ProjectFixture.compile(dir).diagnostics())
        .extracting(ProjectFixture::line)
        .containsExactly(".svc: error[invalid-encoding]: file is not UTF-8 text");
  }

  @Test
  void aFileThatIsNotUtf8IsThatOneErrorNotAlsoMissingFieldsOrItsTestsComplaints() throws Exception {
    ProjectFixture.write(
        dir,
        """
        == .svc
        name: shop
        == app/adapters/db.terse
        connector: sqlite
        connection_string: ":memory:"
        == app/tools/count/tests.terse
        cases:
          counts:
            inputs: {table: items}
            expect: {row_count: 1}
        """);
    Path config = dir.resolve("app/tools/count/config.terse");
    Files.write(config, new byte[] {'d', 'e', 's', (byte) 0xC3, (byte) 0x28, '\n'});

    assertThat(ProjectFixture.compile(dir).diagnostics())
        .extracting(ProjectFixture::line)
        .containsExactly(
            "app/tools/count/config.terse: error[invalid-encoding]: file is not UTF-8 text");
  }
}

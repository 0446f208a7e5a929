package dev.svc.project;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The path forms of {@code svc validate [path]} and {@code -s}. */
class ProjectLocatorTest {
  @TempDir Path work;

  @Test
  void withoutAPathTheProjectIsTheWorkingDirectory() throws IOException {
    Files.writeString(work.resolve(".svc"), "name: shop\n");

    Project project = ProjectLocator.locate(Optional.empty(), Optional.empty(), work);

    assertThat(project.directory()).isEqualTo(work.toAbsolutePath().normalize());
    assertThat(project.root()).isEqualTo(new Project.RootFile(work.resolve(".svc"), ".svc"));
  }

  @Test
  void aDirectoryArgumentIsResolvedAgainstTheWorkingDirectory() throws IOException {
    Path shop = Files.createDirectories(work.resolve("projects/shop"));
    Files.writeString(shop.resolve(".svc"), "name: shop\n");

    Project project = ProjectLocator.locate(Optional.of("projects/shop"), Optional.empty(), work);

    assertThat(project.directory()).isEqualTo(shop.toAbsolutePath().normalize());
    assertThat(project.root().label()).isEqualTo(".svc");
  }

  @Test
  void aFileArgumentIsTheRootFileAndItsDirectoryIsTheProject() throws IOException {
    Path conf = Files.createDirectories(work.resolve("conf"));
    Files.writeString(conf.resolve("svc.yaml"), "name: shop\n");

    Project project = ProjectLocator.locate(Optional.of("conf/svc.yaml"), Optional.empty(), work);

    assertThat(project.directory()).isEqualTo(conf.toAbsolutePath().normalize());
    assertThat(project.root())
        .isEqualTo(new Project.RootFile(conf.resolve("svc.yaml"), "svc.yaml"));
  }

  @Test
  void aPathThatDoesNotExistIsAClearError() {
    assertThatThrownBy(() -> ProjectLocator.locate(Optional.of("nope"), Optional.empty(), work))
        .isInstanceOf(ProjectNotFoundException.class)
        .hasMessage("no such file or directory: " + work.resolve("nope"));
  }

  @Test
  void aDirectoryWithoutRootFileSuggestsInit() {
    assertThatThrownBy(() -> ProjectLocator.locate(Optional.empty(), Optional.empty(), work))
        .isInstanceOf(ProjectNotFoundException.class)
        .hasMessage(
            "no .svc file in "
                + work
                + " (run `svc init` to create a project, or pass the path of a project)");
  }

  @Test
  void inlineYamlNeedsNoRootFileAndUsesTheGivenDirectory() throws IOException {
    Path shop = Files.createDirectories(work.resolve("shop"));

    Project project = ProjectLocator.locate(Optional.of("shop"), Optional.of("name: x"), work);

    assertThat(project.directory()).isEqualTo(shop.toAbsolutePath().normalize());
    assertThat(project.root()).isEqualTo(new Project.InlineRoot("name: x"));
    assertThat(project.root().label()).isEqualTo("<inline .svc>");
  }

  @Test
  void inlineYamlWithAFilePathIsAClearError() throws IOException {
    Files.writeString(work.resolve("svc.yaml"), "name: shop\n");

    assertThatThrownBy(
            () -> ProjectLocator.locate(Optional.of("svc.yaml"), Optional.of("name: x"), work))
        .isInstanceOf(ProjectNotFoundException.class)
        .hasMessageContaining("with -s the path must be the project directory");
  }

  @Test
  void pathsInDiagnosticsAreRelativeToTheProjectWithForwardSlashes() {
    Project project = new Project(work, new Project.InlineRoot("name: x"));

    assertThat(project.relative(work.resolve("app/tools/t/config.terse")))
        .isEqualTo("app/tools/t/config.terse");
  }
}

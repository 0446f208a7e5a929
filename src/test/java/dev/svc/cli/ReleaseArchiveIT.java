package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.SvcVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/release.sh} makes {@code target/svc-<version>-linux-x64.tar.gz}; unpacked, its
 * {@code svc} runs with no JDK anywhere on the PATH or in JAVA_HOME, and its {@code install.sh}
 * puts {@code svc} into a prefix's {@code bin/} and says when that is not on the PATH.
 */
class ReleaseArchiveIT {
  @TempDir Path work;

  @Test
  void theReleaseArchiveRunsWithoutAJdkAndItsInstallerPutsSvcIntoThePrefix() throws Exception {
    Path repository = Path.of("").toAbsolutePath();
    // a .env someone keeps beside the example (svc reads it) must not travel with the release
    Path leftEnv = repository.resolve("examples/quickstart/.env");
    Files.writeString(leftEnv, "SHOP_KEY=TopSecret-Release-DotEnv\n");
    Result release;
    try {
      release = run(repository, Map.of(), List.of("scripts/release.sh"));
    } finally {
      Files.deleteIfExists(leftEnv);
    }
    assertThat(release.exitCode()).as(release.output()).isZero();
    String version = SvcVersion.current();
    Path archive = repository.resolve("target/svc-" + version + "-linux-x64.tar.gz");
    assertThat(archive).isRegularFile();
    assertThat(repository.resolve("target/svc-" + version + "-linux-x64.tar.gz.sha256"))
        .isRegularFile();

    Path unpacked = Files.createDirectories(work.resolve("unpacked"));
    assertThat(run(unpacked, Map.of(), List.of("tar", "-xzf", archive.toString())).exitCode())
        .isZero();
    Path home = unpacked.resolve("svc-" + version);
    for (String file :
        List.of(
            "svc",
            "bin/svc",
            "lib/svc.jar",
            "runtime/bin/java",
            "install.sh",
            "README.md",
            "LICENSE",
            "docs/cli.md",
            "examples/quickstart/.svc")) {
      assertThat(home.resolve(file)).as(file).exists();
    }
    assertThat(home.resolve("runtime/bin/javac")).doesNotExist();
    assertThat(home.resolve("examples/quickstart/.env")).doesNotExist();
    assertThat(home.resolve("examples/quickstart/.gitignore")).exists();

    Map<String, String> noJdk = noJdkEnvironment();
    Result versionRun = run(work, noJdk, List.of(home.resolve("bin/svc").toString(), "--version"));
    assertThat(versionRun.exitCode()).as(versionRun.output()).isZero();
    assertThat(versionRun.output()).contains("svc " + version);

    Result validate =
        run(
            work,
            noJdk,
            List.of(
                home.resolve("svc").toString(),
                "validate",
                repository.resolve("examples/quickstart").toString()));
    assertThat(validate.exitCode()).as(validate.output()).isZero();
    assertThat(validate.output()).contains("valid: quickstart (5 tools");

    Path prefix = work.resolve("prefix");
    Result install =
        run(
            work,
            noJdk,
            List.of("bash", home.resolve("install.sh").toString(), "--prefix", prefix.toString()));
    assertThat(install.exitCode()).as(install.output()).isZero();
    assertThat(install.output())
        .contains("installed svc " + version)
        .contains(prefix.resolve("bin") + " is not on your PATH");
    Result installed = run(work, noJdk, List.of(prefix.resolve("bin/svc").toString(), "--version"));
    assertThat(installed.exitCode()).as(installed.output()).isZero();
    assertThat(installed.output()).contains("svc " + version);

    Map<String, String> onPath = new HashMap<>(noJdk);
    onPath.put("PATH", prefix.resolve("bin") + ":" + noJdk.get("PATH"));
    Result again =
        run(
            work,
            onPath,
            List.of("bash", home.resolve("install.sh").toString(), "--prefix", prefix.toString()));
    assertThat(again.exitCode()).as(again.output()).isZero();
    assertThat(again.output()).contains("is on your PATH").doesNotContain("NOTE");
    assertThat(run(work, onPath, List.of("bash", "-c", "svc --version")).output())
        .contains("svc " + version);
  }

  @Test
  void theCheckoutInstallerLinksTheCheckoutLauncher() throws Exception {
    Path repository = Path.of("").toAbsolutePath();
    Path prefix = work.resolve("prefix");
    Result install =
        run(
            work,
            noJdkEnvironment(),
            List.of(
                "bash",
                repository.resolve("scripts/install.sh").toString(),
                "--prefix",
                prefix.toString()));
    assertThat(install.exitCode()).as(install.output()).isZero();
    assertThat(Files.readSymbolicLink(prefix.resolve("bin/svc")))
        .isEqualTo(repository.resolve("svc"));
    assertThat(install.output()).contains("is not on your PATH");
  }

  /**
   * A PATH of only the programs the scripts use (no java anywhere) and no JAVA_HOME: what a machine
   * without a JDK looks like.
   */
  private Map<String, String> noJdkEnvironment() throws IOException {
    Path bin = Files.createDirectories(work.resolve("bin"));
    for (String tool :
        List.of(
            "bash",
            "sh",
            "env",
            "readlink",
            "dirname",
            "basename",
            "cp",
            "mv",
            "rm",
            "ln",
            "mkdir",
            "sed",
            "cat",
            "grep",
            "uname",
            "tar",
            "gzip")) {
      Path link = bin.resolve(tool);
      if (Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      for (String dir : List.of("/usr/bin", "/bin")) {
        if (Files.isExecutable(Path.of(dir, tool))) {
          Files.createSymbolicLink(link, Path.of(dir, tool));
          break;
        }
      }
    }
    assertThat(bin.resolve("java")).doesNotExist();
    return Map.of(
        "PATH", bin.toString(), "HOME", Files.createDirectories(work.resolve("home")).toString());
  }

  record Result(int exitCode, String output) {}

  /**
   * Runs {@code command} in {@code directory} with exactly {@code environment} (when not empty).
   */
  private static Result run(Path directory, Map<String, String> environment, List<String> command)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(new ArrayList<>(command))
            .directory(directory.toFile())
            .redirectErrorStream(true);
    if (!environment.isEmpty()) {
      builder.environment().clear();
      builder.environment().putAll(environment);
    }
    Process process = builder.start();
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    process.getInputStream().transferTo(output);
    if (!process.waitFor(900, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not finish");
    }
    return new Result(process.exitValue(), output.toString(StandardCharsets.UTF_8));
  }
}

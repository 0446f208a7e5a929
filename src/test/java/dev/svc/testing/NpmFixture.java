package dev.svc.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/**
 * Two tiny npm packages committed under {@code src/test/resources/dev/svc/script/npm} (so tests
 * need no network): {@code tiny-slug}, an ES module with a default and named exports, and {@code
 * tiny-counter}, a CommonJS module whose {@code module.exports} is a function.
 */
public final class NpmFixture {
  private NpmFixture() {}

  /** Copies {@code package.json} and {@code node_modules/} into {@code project}. */
  public static Path install(Path project) {
    try {
      Path source = Path.of(NpmFixture.class.getResource("/dev/svc/script/npm").toURI());
      try (Stream<Path> files = Files.walk(source)) {
        for (Path file : files.toList()) {
          Path target = project.resolve(source.relativize(file).toString());
          if (Files.isDirectory(file)) {
            Files.createDirectories(target);
          } else {
            Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
      return project;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}

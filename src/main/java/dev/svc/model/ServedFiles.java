package dev.svc.model;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Which files of a resource template's folder may be served: the one rule {@code svc build} embeds
 * by and {@code svc start} serves by, so that a started project serves no more than its artifact.
 */
public final class ServedFiles {
  private ServedFiles() {}

  /**
   * Whether the file at {@code relative} (to the template's folder) may be served: no name starting
   * with a dot at any depth ({@code .env}, {@code .svc}, {@code .git/…}) and no {@code
   * config.terse}.
   */
  public static boolean servable(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.startsWith(".") || name.equals("config.terse")) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code file} is inside {@code directory} once symbolic links are followed: a link in
   * the folder to {@code /etc} or to a file elsewhere is not served. Links that stay within the
   * folder (a Kubernetes ConfigMap volume is made of them) are.
   */
  public static boolean insideForReal(Path file, Path directory) {
    try {
      return file.toRealPath().startsWith(directory.toRealPath());
    } catch (IOException e) {
      return false;
    }
  }
}

package dev.svc.cli;

import dev.svc.SvcException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/**
 * The jars svc runs from: its own jar and the dependencies its manifest {@code Class-Path} names
 * (relative to the jar), in that order. {@code svc build} copies them into the artifact.
 */
record RuntimeJars(Path mainJar, List<String> classPath) {

  static RuntimeJars locate() {
    Path location;
    try {
      location =
          Path.of(RuntimeJars.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    Path jar = Files.isDirectory(location) ? location.getParent().resolve("svc.jar") : location;
    if (!Files.isRegularFile(jar)) {
      throw new SvcException(
          "svc build needs svc's packaged jar, and " + jar + " does not exist (run `mvn package`)");
    }
    try (JarFile file = new JarFile(jar.toFile())) {
      String classPath =
          file.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
      List<String> entries = new ArrayList<>();
      if (classPath != null) {
        for (String entry : classPath.trim().split("\\s+")) {
          if (!entry.isEmpty()) {
            entries.add(entry);
          }
        }
      }
      return new RuntimeJars(jar, entries);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + jar, e);
    }
  }

  Path dependency(String entry) {
    return mainJar.getParent().resolve(entry);
  }
}

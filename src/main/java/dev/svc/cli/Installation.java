package dev.svc.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * An svc installation on disk: a directory with the {@code svc} launcher and {@code lib/svc.jar}
 * (the layout of a release archive and of {@code svc build}'s output).
 */
final class Installation {
  private Installation() {}

  /** The installation this process runs from: the parent of the directory of {@code svc.jar}. */
  static Path running() {
    try {
      Path jar =
          Path.of(Installation.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return jar.toAbsolutePath().getParent().getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The version in {@code lib/svc.jar}'s manifest. */
  static Optional<String> version(Path root) {
    try (JarFile jar = new JarFile(root.resolve("lib/svc.jar").toFile())) {
      return Optional.ofNullable(jar.getManifest())
          .map(m -> m.getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_VERSION));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Unpacks {@code archive} beside the installation, checks it, then swaps {@code lib/} and the
   * launcher in by renames; on any failure the old installation is restored.
   */
  static void replace(Path root, byte[] archive, String version) throws IOException {
    Path staging = root.resolve(".upgrade-" + version);
    ArtifactLayout.deleteTree(staging);
    unzip(archive, staging);
    if (!Files.isRegularFile(staging.resolve("lib/svc.jar"))
        || !Files.isRegularFile(staging.resolve("svc"))) {
      ArtifactLayout.deleteTree(staging);
      throw new UpgradeException("the archive holds no lib/svc.jar and svc launcher");
    }
    Path previous = root.resolve(".lib-previous");
    ArtifactLayout.deleteTree(previous);
    Files.move(root.resolve("lib"), previous, StandardCopyOption.ATOMIC_MOVE);
    try {
      Files.move(staging.resolve("lib"), root.resolve("lib"), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      Files.move(previous, root.resolve("lib"), StandardCopyOption.ATOMIC_MOVE);
      throw e;
    }
    staging.resolve("svc").toFile().setExecutable(true);
    Files.move(
        staging.resolve("svc"),
        root.resolve("svc"),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    ArtifactLayout.deleteTree(staging);
    ArtifactLayout.deleteTree(previous);
  }

  private static void unzip(byte[] archive, Path target) throws IOException {
    try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(archive))) {
      ZipEntry entry;
      while ((entry = zip.getNextEntry()) != null) {
        Path file = target.resolve(entry.getName()).normalize();
        if (!file.startsWith(target)) {
          throw new UpgradeException(
              "the archive tries to write outside its directory: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(file);
        } else {
          Files.createDirectories(file.getParent());
          Files.copy(zip, file, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}

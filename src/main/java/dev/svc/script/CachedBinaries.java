package dev.svc.script;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Native files shipped inside jars (the esbuild binary, the V8 library), copied once to a cache
 * directory so that every later run uses them in place.
 *
 * <p>The cache is {@code $SVC_CACHE_DIR}, else {@code $XDG_CACHE_HOME/svc}, else {@code
 * ~/.cache/svc}. A file is written under a temporary name and renamed when complete, with its
 * SHA-256 beside it, so a half-written file (a crash, two processes extracting at once) is never
 * used. Reuse checks the size against the jar entry: cheap enough for every {@code validate}.
 */
public final class CachedBinaries {
  private CachedBinaries() {}

  /**
   * The cached copy of classpath resource {@code resource}, extracted on first use.
   *
   * @param directory the cache sub-directory, named with the version (e.g. {@code esbuild-0.25.10})
   * @throws IllegalStateException when the resource is not on the class path
   * @throws UncheckedIOException when the cache cannot be written
   */
  static Path extract(String resource, String directory, String fileName, boolean executable) {
    URL url = CachedBinaries.class.getClassLoader().getResource(resource);
    if (url == null) {
      throw new IllegalStateException("missing resource " + resource);
    }
    try {
      long size = size(url);
      Path dir = cacheDirectory().resolve(directory);
      Path file = dir.resolve(fileName);
      Path checksum = dir.resolve(fileName + ".sha256");
      if (Files.isRegularFile(file)
          && Files.isRegularFile(checksum)
          && (size < 0 || Files.size(file) == size)) {
        return file;
      }
      Files.createDirectories(dir);
      Path partial = Files.createTempFile(dir, fileName, ".partial");
      try {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (InputStream in = url.openStream();
            OutputStream out = new DigestOutputStream(Files.newOutputStream(partial), sha)) {
          in.transferTo(out);
        }
        if (executable) {
          Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        move(partial, file);
        Files.writeString(
            checksum, HexFormat.of().formatHex(sha.digest()) + "  " + fileName + "\n");
      } finally {
        Files.deleteIfExists(partial);
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract " + fileName + " to the svc cache", e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The cache root (not created). */
  public static Path cacheDirectory() {
    Optional<String> explicit = env("SVC_CACHE_DIR");
    if (explicit.isPresent()) {
      return Path.of(explicit.get());
    }
    return env("XDG_CACHE_HOME")
        .map(Path::of)
        .orElseGet(() -> Path.of(System.getProperty("user.home"), ".cache"))
        .resolve("svc");
  }

  private static Optional<String> env(String name) {
    return Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
  }

  private static long size(URL url) throws IOException {
    URLConnection connection = url.openConnection();
    connection.setUseCaches(false);
    long length = connection.getContentLengthLong();
    connection.getInputStream().close();
    return length;
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}

package dev.svc.script;

import dev.svc.json.Jackson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The last type check of each project, kept in the svc cache ({@code
 * typescript-<version>/checks/}): what the compiler answered, and every file it asked for with a
 * digest of what it got (or that there was none). A later check of the same project with the same
 * compiler and roots whose every file still reads the same gets that answer without running the
 * compiler: {@code svc validate} of a project whose scripts and tools did not change skips the type
 * check's cost.
 */
final class CheckResults {
  private static final long MAX_ENTRY_BYTES = 16L * 1024 * 1024;

  private CheckResults() {}

  /** The files a check read, in order: virtual path to {@link #digest} of what it got. */
  static final class Reads {
    private final Map<String, String> digests = new LinkedHashMap<>();

    synchronized void saw(String probe, String content) {
      digests.putIfAbsent(probe, digest(content));
    }

    synchronized Map<String, String> all() {
      return Map.copyOf(digests);
    }
  }

  /**
   * The answer of the last check of {@code project} under {@code key}, when every probe it made
   * gives the same result now ({@code replay} answers a probe as the compiler's file system would).
   */
  static Optional<String> reusable(Path project, String key, Function<String, String> replay) {
    Optional<Path> file = file(project);
    try {
      if (file.isEmpty()
          || !Files.isRegularFile(file.get())
          || Files.size(file.get()) > MAX_ENTRY_BYTES) {
        return Optional.empty();
      }
      JsonNode entry = Jackson.MAPPER.readTree(Files.readString(file.get()));
      if (!entry.path("key").asString("").equals(key) || !entry.path("answer").isString()) {
        return Optional.empty();
      }
      for (Map.Entry<String, JsonNode> probe : entry.path("reads").properties()) {
        if (!digest(replay.apply(probe.getKey())).equals(probe.getValue().asString(""))) {
          return Optional.empty();
        }
      }
      return Optional.of(entry.get("answer").asString());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Keeps {@code answer} as the last check of {@code project}; a cache that cannot be written is
   * skipped.
   */
  static void store(Path project, String key, Reads reads, String answer) {
    Optional<Path> file = file(project);
    if (file.isEmpty()) {
      return;
    }
    ObjectNode entry = Jackson.MAPPER.createObjectNode();
    entry.put("key", key);
    ObjectNode digests = entry.putObject("reads");
    reads.all().forEach(digests::put);
    entry.put("answer", answer);
    try {
      Path target = file.get();
      Files.createDirectories(target.getParent());
      Path partial = Files.createTempFile(target.getParent(), "check", ".partial");
      try {
        Files.writeString(partial, Jackson.MAPPER.writeValueAsString(entry));
        try {
          Files.move(
              partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(partial);
      }
      prune(target.getParent(), target);
    } catch (IOException | RuntimeException e) {
      // the next check runs the compiler again
    }
  }

  /** How many projects' last checks are kept: the most recently checked ones. */
  static final int KEPT = 200;

  /**
   * Deletes the oldest results beyond {@link #KEPT} (projects checked once, temporary directories),
   * so the cache does not grow with every directory ever validated. Best effort.
   */
  static void prune(Path directory, Path kept) {
    try (Stream<Path> files = Files.list(directory)) {
      List<Path> results =
          files
              .filter(f -> f.getFileName().toString().endsWith(".json") && !f.equals(kept))
              .sorted(Comparator.comparing(CheckResults::modified).reversed())
              .toList();
      for (Path old : results.subList(Math.min(results.size(), KEPT - 1), results.size())) {
        Files.deleteIfExists(old);
      }
    } catch (IOException | RuntimeException e) {
      // kept as it is: a later check prunes again
    }
  }

  private static FileTime modified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }

  /** A digest of a file's content, or {@code -} for no file. */
  static String digest(String content) {
    if (content == null) {
      return "-";
    }
    return sha256(content).substring(0, 32);
  }

  static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Optional<Path> file(Path project) {
    try {
      return Optional.of(
          CachedBinaries.cacheDirectory()
              .resolve("type-checks")
              .resolve(sha256(project.toString()).substring(0, 32) + ".json"));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }
}

package dev.svc.cli;

import dev.svc.log.Log;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Watches a project tree (JDK {@link WatchService}, registered per directory) and reports the
 * relevant files that changed, debounced: one report after the tree has been quiet for a moment.
 * Hidden directories, {@code node_modules}, {@code target} and {@code dist} are not watched.
 */
final class ProjectWatcher implements AutoCloseable {
  private static final Log LOG = Log.tagged("watch");

  private final Path root;
  private final WatchService service;
  private final Predicate<String> relevant;

  /** The directories registered, so that a deleted name is known to be one of them. */
  private final Set<Path> directories = new HashSet<>();

  private final Consumer<Set<String>> onChange;
  private final Duration quiet;
  private final Thread thread;

  /**
   * @param relevant whether a changed project-relative path matters
   * @param onChange receives the project-relative paths that changed
   */
  ProjectWatcher(
      Path root, Predicate<String> relevant, Consumer<Set<String>> onChange, Duration quiet) {
    this.root = root.toAbsolutePath().normalize();
    this.relevant = relevant;
    this.onChange = onChange;
    this.quiet = quiet;
    try {
      this.service = FileSystems.getDefault().newWatchService();
      registerTree(this.root);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot watch " + root, e);
    }
    this.thread = Thread.ofPlatform().daemon().name("svc-watch").start(this::loop);
  }

  private void loop() {
    Set<String> pending = new TreeSet<>();
    try {
      while (true) {
        WatchKey key =
            pending.isEmpty()
                ? service.take()
                : service.poll(quiet.toMillis(), TimeUnit.MILLISECONDS);
        if (key == null) {
          Set<String> changed = Set.copyOf(pending);
          pending.clear();
          try {
            onChange.accept(changed);
          } catch (RuntimeException e) {
            LOG.error("reload failed", e);
          }
          continue;
        }
        Path dir = (Path) key.watchable();
        for (WatchEvent<?> event : key.pollEvents()) {
          if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
            pending.add(".svc");
            continue;
          }
          Path path = dir.resolve((Path) event.context());
          if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE
              && Files.isDirectory(path)
              && !ignored(root.relativize(path))) {
            try {
              registerTree(path);
              // files written into the new directory before it was registered sent no event
              addFilesOf(path, pending);
            } catch (IOException | UncheckedIOException e) {
              // removed again already: its deletion is an event of its parent
              LOG.debug("a new directory could not be watched", e, "path", path);
            }
          }
          if (event.kind() == StandardWatchEventKinds.ENTRY_DELETE && forgetTree(path)) {
            // a directory moved out of the tree, or renamed to an ignored name (`.old`): its files
            // send no events of their own, and its name is not a file that matters
            addDirectory(path, pending);
          }
          addIfRelevant(path, pending);
        }
        key.reset();
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // closing
    }
  }

  private void addIfRelevant(Path path, Set<String> pending) {
    String relative = root.relativize(path).toString().replace('\\', '/');
    if (!ignored(root.relativize(path)) && relevant.test(relative)) {
      pending.add(relative);
    }
  }

  private void addDirectory(Path directory, Set<String> pending) {
    if (!ignored(root.relativize(directory))) {
      pending.add(root.relativize(directory).toString().replace('\\', '/'));
    }
  }

  /** Forgets the watched directories at or under {@code path}; true when there were any. */
  private boolean forgetTree(Path path) {
    return directories.removeIf(dir -> dir.startsWith(path));
  }

  private void addFilesOf(Path directory, Set<String> pending) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      files.filter(Files::isRegularFile).forEach(file -> addIfRelevant(file, pending));
    }
  }

  private void registerTree(Path start) throws IOException {
    try (Stream<Path> dirs = Files.walk(start)) {
      for (Path dir : (Iterable<Path>) dirs.filter(Files::isDirectory)::iterator) {
        if (!ignored(root.relativize(dir))) {
          directories.add(dir);
          dir.register(
              service,
              StandardWatchEventKinds.ENTRY_CREATE,
              StandardWatchEventKinds.ENTRY_MODIFY,
              StandardWatchEventKinds.ENTRY_DELETE);
        }
      }
    }
  }

  private static boolean ignored(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if ((name.startsWith(".") && !name.equals(".svc") && !name.equals(".env"))
          || name.equals("node_modules")
          || name.equals("target")
          || name.equals("dist")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    thread.interrupt();
    try {
      service.close();
    } catch (IOException e) {
      // closing is best effort
    }
  }
}

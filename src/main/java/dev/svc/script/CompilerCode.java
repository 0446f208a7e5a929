package dev.svc.script;

import com.caoccao.javet.exceptions.JavetException;
import com.caoccao.javet.interop.V8Runtime;
import com.caoccao.javet.values.V8Value;
import com.caoccao.javet.values.reference.V8Script;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * The TypeScript compiler's code in V8, with V8's code cache of svc's own compiler kept in the svc
 * cache ({@code typescript-<version>/}, beside esbuild and V8's library): parsing and compiling its
 * 9 MB of JavaScript is most of a cold type check, and the cache skips it. The cache is written
 * once, after a check, so that it holds the functions checking needed; V8 ignores a cache made by
 * another V8 or for other source.
 */
final class CompilerCode implements AutoCloseable {
  private static final long MAX_CACHE_BYTES = 64L * 1024 * 1024;

  private final V8Script script;
  private final Optional<Path> cacheFile;
  private final boolean cached;

  private CompilerCode(V8Script script, Optional<Path> cacheFile, boolean cached) {
    this.script = script;
    this.cacheFile = cacheFile;
    this.cached = cached;
  }

  /** Compiles and runs the compiler's source in {@code runtime}: {@code ts} is then a global. */
  static CompilerCode load(V8Runtime runtime, TypeChecker.Compiler compiler) throws JavetException {
    Optional<Path> file = cacheFile(compiler);
    byte[] data = file.flatMap(CompilerCode::read).orElse(null);
    V8Script script =
        runtime
            .getExecutor(compiler.source(), data)
            .setResourceName("typescript-" + compiler.version() + ".js")
            .compileV8Script(true);
    try {
      V8Value result = script.execute(false);
      result.close();
      return new CompilerCode(script, file, data != null);
    } catch (JavetException | RuntimeException e) {
      script.close();
      throw e;
    }
  }

  /** Writes the code cache when there was none; a cache that cannot be written is left out. */
  void save() {
    if (cached || cacheFile.isEmpty()) {
      return;
    }
    try {
      byte[] data = script.getCachedData();
      if (data == null || data.length == 0 || data.length > MAX_CACHE_BYTES) {
        return;
      }
      Path file = cacheFile.get();
      Files.createDirectories(file.getParent());
      Path partial =
          Files.createTempFile(file.getParent(), file.getFileName().toString(), ".partial");
      try {
        Files.write(partial, data);
        try {
          Files.move(
              partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(partial);
      }
    } catch (JavetException | IOException | RuntimeException e) {
      // the next check compiles the compiler again
    }
  }

  @Override
  public void close() {
    try {
      script.close();
    } catch (JavetException e) {
      // the runtime closes it anyway
    }
  }

  /** {@code typescript-<version>/bundled-javet-<version>.v8cache}, for svc's own compiler only. */
  private static Optional<Path> cacheFile(TypeChecker.Compiler compiler) {
    if (compiler.ownSource().isPresent()) {
      return Optional.empty(); // a project's own compiler: one cache per project would pile up
    }
    try {
      return Optional.of(
          CachedBinaries.cacheDirectory()
              .resolve("typescript-" + compiler.version())
              .resolve(compiler.identity() + "-javet-" + V8Engine.JAVET_VERSION + ".v8cache"));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<byte[]> read(Path file) {
    try {
      if (!Files.isRegularFile(file) || Files.size(file) > MAX_CACHE_BYTES) {
        return Optional.empty();
      }
      return Optional.of(Files.readAllBytes(file));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}

package dev.svc.script;

import com.caoccao.javet.enums.JSRuntimeType;
import com.caoccao.javet.exceptions.JavetException;
import com.caoccao.javet.interop.V8Host;
import com.caoccao.javet.interop.loader.IJavetLibLoadingListener;
import com.caoccao.javet.interop.loader.JavetLibLoader;
import com.caoccao.javet.interop.options.V8Flags;
import com.caoccao.javet.interop.options.V8RuntimeOptions;
import dev.svc.log.Log;
import dev.svc.model.Scripts;
import java.io.File;
import java.nio.file.Path;

/**
 * V8 through Javet, in V8 mode (no Node.js): {@code require}, {@code process}, timers and any Java
 * bridge do not exist there to begin with. The native library is copied once to the svc cache and
 * loaded from there, on the first isolate: a project without scripts never loads it.
 *
 * <p>V8's flags are per process, so the heap cap is fixed by the first engine that creates an
 * isolate: every isolate gets the same cap.
 */
public final class V8Engine implements ScriptEngine {
  /** The Javet core and native versions, which must match (see java-stack.md §2.2). */
  static final String JAVET_VERSION = "5.0.6";

  public static final int DEFAULT_HEAP_MB = 128;

  /**
   * The stack JavaScript may use below the point where a call enters V8, in KiB (V8's default is
   * 984). A call on its caller's thread runs on a virtual-thread carrier, whose stack is the JVM's
   * default 1 MiB: 768 KiB leaves room for the Java frames above the entry point and the JVM's
   * guard pages, so runaway recursion is a {@code RangeError} of the script, never a crash of the
   * server. About 12,000 frames of a simple recursive function.
   */
  static final int STACK_KB = 768;

  private static final Log LOG = Log.tagged("script");
  private static V8Host host;
  private static int configuredHeapMb;

  private final int heapMb;

  /**
   * @param heapMb the heap cap of each isolate in MiB; a call that reaches it fails and its isolate
   *     is replaced
   */
  public V8Engine(int heapMb) {
    if (heapMb < 8) {
      throw new IllegalArgumentException("a script heap needs at least 8 MiB, got " + heapMb);
    }
    this.heapMb = heapMb;
  }

  @Override
  public ScriptIsolate newIsolate(Scripts scripts) {
    return V8Isolate.create(host(heapMb), scripts, heapMb);
  }

  @Override
  public long memoryUsedBytes() {
    return IsolateHeaps.totalBytes();
  }

  /**
   * The process's V8, for work beside script calls (type checking): loaded with the default heap
   * cap when no engine loaded it first.
   */
  static V8Host sharedHost() {
    synchronized (V8Engine.class) {
      return host != null ? host : host(DEFAULT_HEAP_MB);
    }
  }

  private static synchronized V8Host host(int heapMb) {
    if (host != null) {
      if (heapMb != configuredHeapMb) {
        LOG.warn(
            "the script heap cap is fixed per process; keeping the first one",
            "heap_mb",
            configuredHeapMb);
      }
      return host;
    }
    long started = System.nanoTime();
    V8Flags flags = V8RuntimeOptions.V8_FLAGS;
    if (!flags.isSealed()) {
      flags.setMaxHeapSize(heapMb);
      // --no-memory-protection-keys: with PKU (memory protection keys, on recent x86 CPUs) V8
      // guards its code space with a pkey whose rights are per thread and inherited at thread
      // creation. Scripts run on worker threads and virtual-thread carriers that the JVM made
      // before or apart from V8's set-up, and one of them compiling a function was seen killing
      // the whole process with SIGSEGV (si_code SEGV_PKUERR). Without the keys V8 protects its
      // code pages with mprotect, as on CPUs without PKU.
      //
      // --max-semi-space-size=1 (MiB): V8 grows each isolate's young generation up to 16 MiB
      // per semi-space under allocation, which a script's short-lived call data never needs;
      // capped, an isolate stays ~5 MB smaller under load (bench/RESULTS.md, "Memory").
      //
      // --optimize-for-size: V8's heuristics for small memory (its old generation grows by a
      // smaller factor between collections, smaller code): ~10 MB less for three isolates under
      // the mixed soak, at no handler rate measurably lost (bench/RESULTS.md, "Memory, issue 24").
      flags.setCustomFlags(
          "--disallow-code-generation-from-strings --no-memory-protection-keys"
              + " --max-semi-space-size=1 --optimize-for-size --stack-size="
              + STACK_KB);
    }
    loadFromCache();
    V8Host loaded = V8Host.getV8Instance();
    if (!loaded.isLibraryLoaded()) {
      JavetException cause = loaded.getLastException();
      throw new ScriptEngineException(
          "cannot load V8 (Javet " + JAVET_VERSION + ") for TypeScript scripts", cause);
    }
    host = loaded;
    configuredHeapMb = heapMb;
    LOG.debug("V8 loaded", "ms", (System.nanoTime() - started) / 1_000_000, "heap_mb", heapMb);
    return host;
  }

  /** Points Javet at a copy of its library in the svc cache instead of a fresh one in /tmp. */
  private static void loadFromCache() {
    try {
      String file = new JavetLibLoader(JSRuntimeType.V8).getLibFileName();
      Path library = CachedBinaries.extract(file, "javet-" + JAVET_VERSION, file, false);
      File directory = library.getParent().toFile();
      JavetLibLoader.setLibLoadingListener(
          new IJavetLibLoadingListener() {
            @Override
            public File getLibPath(JSRuntimeType type) {
              return directory;
            }

            @Override
            public boolean isDeploy(JSRuntimeType type) {
              return false;
            }
          });
    } catch (JavetException | RuntimeException e) {
      // Javet's own loader extracts to a temporary directory instead: slower, still correct
      LOG.debug("cannot use the svc cache for V8; Javet extracts it itself", "error", e.toString());
    }
  }
}

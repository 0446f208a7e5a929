package dev.svc.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints how long after process launch each start-up step ended, when the environment variable
 * {@code SVC_TRACE_STARTUP} is set: the tool behind the start-up numbers in {@code bench/}. The
 * launch time comes from {@code -Dsvc.launched} (epoch milliseconds, set by the launcher), else the
 * first mark. Each line also gives the CPU time the marking thread has used so far (from {@code
 * /proc/thread-self/schedstat}, on Linux): on a busy machine the wall clock stretches with the
 * other processes' load, while a thread's CPU time says what the step itself cost.
 */
public final class StartupTrace {
  private static final boolean ENABLED = System.getenv("SVC_TRACE_STARTUP") != null;
  private static final long LAUNCHED = launched();
  private static final Path THREAD_CPU = Path.of("/proc/thread-self/schedstat");

  private StartupTrace() {}

  private static long launched() {
    String property = System.getProperty("svc.launched");
    try {
      return property != null ? Long.parseLong(property) : System.currentTimeMillis();
    } catch (NumberFormatException e) {
      return System.currentTimeMillis();
    }
  }

  public static void mark(String step) {
    if (ENABLED) {
      // a StringBuilder, not +: a string concatenation of a new shape is bootstrapped at its first
      // use (~10 ms on a cold JVM), and the training run of the AOT cache does not trace
      StringBuilder line =
          new StringBuilder("startup: ")
              .append(System.currentTimeMillis() - LAUNCHED)
              .append(" ms ")
              .append(step)
              .append(" [")
              .append(Thread.currentThread().getName());
      appendThreadCpu(line);
      System.err.println(line.append(']'));
    }
  }

  /** Appends {@code ", cpu N ms"}: the calling thread's CPU time so far, where it is known. */
  private static void appendThreadCpu(StringBuilder line) {
    try {
      String schedstat = Files.readString(THREAD_CPU);
      int end = schedstat.indexOf(' ');
      long nanos = Long.parseLong(end < 0 ? schedstat.strip() : schedstat.substring(0, end));
      line.append(", cpu ").append(nanos / 1_000_000).append(" ms");
    } catch (IOException | RuntimeException e) {
      // not on Linux: the wall clock only
    }
  }
}

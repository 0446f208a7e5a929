package dev.svc.log;

/**
 * Prints how long after process launch each start-up step ended, when the environment variable
 * {@code SVC_TRACE_STARTUP} is set: the tool behind the start-up numbers in {@code bench/}. The
 * launch time comes from {@code -Dsvc.launched} (epoch milliseconds, set by the launcher), else the
 * first mark.
 */
public final class StartupTrace {
  private static final boolean ENABLED = System.getenv("SVC_TRACE_STARTUP") != null;
  private static final long LAUNCHED = launched();

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
      System.err.println(
          "startup: "
              + (System.currentTimeMillis() - LAUNCHED)
              + " ms "
              + step
              + " ["
              + Thread.currentThread().getName()
              + "]");
    }
  }
}

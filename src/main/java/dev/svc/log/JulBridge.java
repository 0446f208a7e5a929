package dev.svc.log;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * Sends what libraries log through {@code java.util.logging} to svc's structured logger, as {@link
 * Slf4jProvider} does for SLF4J. Without it, the JDK's console handler prints such lines as plain
 * text on standard error, e.g. OpenTelemetry's {@code INFO: AutoConfiguredOpenTelemetrySdk found on
 * classpath but automatic configuration is disabled}, written when MySQL Connector/J looks for a
 * global OpenTelemetry at its first connection.
 *
 * <p>Installed as {@code java.util.logging.config.class} by {@link #install()}: the JDK builds it
 * only when something first logs through {@code java.util.logging}, so a process in which nothing
 * does pays nothing. Levels as for SLF4J: severe → error, warning → warn, info and config → svc's
 * debug (level 4), finer levels dropped (not even created: the root level is info).
 */
public final class JulBridge {
  /** Called by the JDK's {@link LogManager} when it starts: routes every record to {@link Sink}. */
  public JulBridge() {
    String configuration = "handlers=" + Sink.class.getName() + "\n.level=INFO\n";
    try {
      LogManager.getLogManager()
          .readConfiguration(
              new ByteArrayInputStream(configuration.getBytes(StandardCharsets.ISO_8859_1)));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // reading from memory does not fail
    }
  }

  /**
   * Makes {@code java.util.logging} write to svc's logger, unless the user configured it (the
   * system property {@code java.util.logging.config.class} or {@code .file}). Call it before
   * anything logs through it.
   */
  public static void install() {
    if (System.getProperty("java.util.logging.config.class") == null
        && System.getProperty("java.util.logging.config.file") == null) {
      System.setProperty("java.util.logging.config.class", JulBridge.class.getName());
    }
  }

  /** The svc level of a {@code java.util.logging} level, or null when it is dropped. */
  static Level level(java.util.logging.Level level) {
    int value = level.intValue();
    if (value >= java.util.logging.Level.SEVERE.intValue()) {
      return Level.ERROR;
    }
    if (value >= java.util.logging.Level.WARNING.intValue()) {
      return Level.WARN;
    }
    if (value >= java.util.logging.Level.CONFIG.intValue()) {
      return Level.DEBUG;
    }
    return null;
  }

  /** The handler the configuration names; the JDK creates it by its class name. */
  public static final class Sink extends Handler {
    private final Formatter messages = new SimpleFormatter();

    @Override
    public void publish(LogRecord record) {
      Level mapped = level(record.getLevel());
      if (mapped == null) {
        return;
      }
      String logger = String.valueOf(record.getLoggerName());
      Log log = Log.tagged(Slf4jProvider.tag(logger));
      if (!log.enabled(mapped)) {
        return;
      }
      // formatMessage fills in {0}-style parameters and resource bundles, as the JDK's own would
      log.log(mapped, messages.formatMessage(record), record.getThrown(), "logger", logger);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}

package dev.svc.testing;

import dev.svc.log.Level;
import dev.svc.log.LogFormat;
import dev.svc.log.LogSink;
import dev.svc.log.TagFilter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * svc's log lines, as text, while a test runs: opened, every line at {@code level} or above goes
 * here instead of stderr; closed, the log goes back to stderr at INFO.
 */
public final class CapturedLog implements AutoCloseable {
  private final ByteArrayOutputStream lines = new ByteArrayOutputStream();

  private CapturedLog(Level level) {
    LogSink.configure(
        level,
        LogFormat.TEXT,
        TagFilter.ALL,
        new PrintStream(lines, true, StandardCharsets.UTF_8),
        Optional.empty());
  }

  public static CapturedLog at(Level level) {
    return new CapturedLog(level);
  }

  /** The lines written so far. */
  public String text() {
    return lines.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    LogSink.configure(Level.INFO, LogFormat.TEXT, TagFilter.ALL, System.err, Optional.empty());
  }
}

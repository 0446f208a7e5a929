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
 * svc's log lines while a test runs: opened, every line at {@code level} or above (of the tags
 * asked for) goes here instead of stderr, as text or as JSON lines; closed, the log goes back to
 * stderr at INFO, as text, every tag.
 */
public final class CapturedLog implements AutoCloseable {
  private final ByteArrayOutputStream lines = new ByteArrayOutputStream();

  private CapturedLog(Level level, LogFormat format, TagFilter tags) {
    LogSink.configure(
        level,
        format,
        tags,
        new PrintStream(lines, true, StandardCharsets.UTF_8),
        Optional.empty());
  }

  /** Text lines of every tag. */
  public static CapturedLog at(Level level) {
    return new CapturedLog(level, LogFormat.TEXT, TagFilter.ALL);
  }

  /** JSON lines of every tag. */
  public static CapturedLog asJson(Level level) {
    return new CapturedLog(level, LogFormat.JSON, TagFilter.ALL);
  }

  /** Lines in {@code format} of the tags {@code tags} lets through. */
  public static CapturedLog at(Level level, LogFormat format, TagFilter tags) {
    return new CapturedLog(level, format, tags);
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

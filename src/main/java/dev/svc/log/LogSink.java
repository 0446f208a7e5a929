package dev.svc.log;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where log lines go: the console, and optionally a file. Configured once by the command that
 * starts serving; until then lines at info and above go to standard error as text.
 */
public final class LogSink {
  private static volatile LogSink current =
      new LogSink(Level.INFO, LogFormat.TEXT, TagFilter.ALL, System.err, Optional.empty());

  private final Level level;
  private final LogFormat format;
  private final TagFilter tags;
  private final PrintStream console;
  private final Optional<OutputStream> file;
  private final ReentrantLock lock = new ReentrantLock();

  private LogSink(
      Level level,
      LogFormat format,
      TagFilter tags,
      PrintStream console,
      Optional<OutputStream> file) {
    this.level = level;
    this.format = format;
    this.tags = tags;
    this.console = console;
    this.file = file;
  }

  /** Replaces the sink; the previous one's file is closed. */
  public static void configure(
      Level level, LogFormat format, TagFilter tags, PrintStream console, Optional<Path> file) {
    Optional<OutputStream> out =
        file.map(path -> {
          try {
            Files.createDirectories(path.getParent());
            return Files.newOutputStream(
                path, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
          } catch (IOException e) {
            throw new UncheckedIOException("cannot open log file " + path, e);
          }
        });
    LogSink previous = current;
    current = new LogSink(level, format, tags, console, out);
    previous.file.ifPresent(LogSink::closeQuietly);
  }

  /**
   * One log line in the JSON format, stamped now, for what svc prints outside the logger (the
   * start-up banner, diagnostics) when the log is JSON.
   */
  public static String jsonLine(
      Level level, String tag, String message, Map<String, Object> fields) {
    return LogLines.json(Instant.now(), level, tag, message, fields, Optional.empty(), null, false);
  }

  static LogSink current() {
    return current;
  }

  public static Level level() {
    return current.level;
  }

  boolean enabled(Level entryLevel, String tag) {
    return entryLevel.number() <= level.number() && tags.accepts(tag);
  }

  void write(
      Level entryLevel, String tag, String message, Map<String, Object> fields, Throwable error) {
    Optional<String> requestId =
        LogContext.REQUEST_ID.isBound()
            ? Optional.of(LogContext.REQUEST_ID.get())
            : Optional.empty();
    Optional<LogContext.TraceIds.Ids> trace = LogContext.currentTrace();
    if (trace.isPresent()) {
      Map<String, Object> withTrace = new LinkedHashMap<>();
      withTrace.put("trace_id", trace.get().traceId());
      withTrace.put("span_id", trace.get().spanId());
      withTrace.putAll(fields);
      fields = withTrace;
    }
    String line =
        switch (format) {
          case TEXT ->
              LogLines.text(
                  Instant.now(),
                  entryLevel,
                  tag,
                  message,
                  fields,
                  requestId,
                  error,
                  level == Level.DEBUG);
          case JSON ->
              LogLines.json(
                  Instant.now(),
                  entryLevel,
                  tag,
                  message,
                  fields,
                  requestId,
                  error,
                  level == Level.DEBUG);
        };
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    lock.lock();
    try {
      console.write(bytes, 0, bytes.length);
      console.flush();
      if (file.isPresent()) {
        file.get().write(bytes);
        file.get().flush();
      }
    } catch (IOException e) {
      // a log file that cannot be written must not fail the request being logged
    } finally {
      lock.unlock();
    }
    LogTail.publish(line);
  }

  private static void closeQuietly(OutputStream out) {
    try {
      out.close();
    } catch (IOException e) {
      // closing a log file is best effort
    }
  }
}

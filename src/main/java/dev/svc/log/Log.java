package dev.svc.log;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The structured logger: a message plus key/value fields, under a tag that {@code --log-tags}
 * filters on. Every line written while serving a request carries its request id. Never pass secrets
 * (connection strings, keys, bound values) as fields.
 *
 * <pre>{@code
 * private static final Log LOG = Log.tagged("db");
 * LOG.info("adapter ready", "adapter", name, "ms", elapsed);
 * }</pre>
 */
public final class Log {
  private final String tag;

  private Log(String tag) {
    this.tag = tag;
  }

  public static Log tagged(String tag) {
    return new Log(tag);
  }

  /** A logger whose tag is this one's plus {@code :sub}, e.g. {@code tool:get_item}. */
  public Log child(String sub) {
    return new Log(tag + ":" + sub);
  }

  public boolean isDebug() {
    return LogSink.current().enabled(Level.DEBUG, tag);
  }

  public void error(String message, Object... fields) {
    log(Level.ERROR, message, null, fields);
  }

  public void error(String message, Throwable error, Object... fields) {
    log(Level.ERROR, message, error, fields);
  }

  public void warn(String message, Object... fields) {
    log(Level.WARN, message, null, fields);
  }

  public void info(String message, Object... fields) {
    log(Level.INFO, message, null, fields);
  }

  public void debug(String message, Object... fields) {
    log(Level.DEBUG, message, null, fields);
  }

  public void debug(String message, Throwable error, Object... fields) {
    log(Level.DEBUG, message, error, fields);
  }

  /** Whether an entry at {@code level} would be written. */
  boolean enabled(Level level) {
    return LogSink.current().enabled(level, tag);
  }

  void log(Level level, String message, Throwable error, Object... fields) {
    LogSink sink = LogSink.current();
    if (!sink.enabled(level, tag)) {
      return;
    }
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i + 1 < fields.length; i += 2) {
      map.put(String.valueOf(fields[i]), fields[i + 1]);
    }
    sink.write(level, tag, message, map, error);
  }
}

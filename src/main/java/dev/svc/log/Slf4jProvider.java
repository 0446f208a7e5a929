package dev.svc.log;

import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * Sends what libraries log through SLF4J (Jetty, the MongoDB and Redis drivers, Google auth) to
 * svc's structured logger, so there is one log with one format, one level, one tag filter and one
 * file. Tags: {@code http} for Jetty, {@code db:mongodb}, {@code db:redis}, {@code telemetry} for
 * OpenTelemetry, else {@code lib}; the library's logger name is the {@code logger} field. Library
 * errors and warnings keep their level; their info lines are svc's debug (level 4); their debug and
 * trace lines are dropped. Registered in {@code META-INF/services}; replaces {@code
 * jetty-slf4j-impl}, which also read a properties file at start.
 */
public final class Slf4jProvider implements SLF4JServiceProvider {
  private final ILoggerFactory loggers = new Loggers();
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();

  @Override
  public ILoggerFactory getLoggerFactory() {
    return loggers;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {}

  /** The tag of a library logger. */
  static String tag(String loggerName) {
    if (loggerName.startsWith("org.eclipse.jetty")) {
      return "http";
    }
    if (loggerName.startsWith("org.mongodb") || loggerName.startsWith("com.mongodb")) {
      return "db:mongodb";
    }
    if (loggerName.startsWith("redis.clients")) {
      return "db:redis";
    }
    if (loggerName.startsWith("io.opentelemetry")) {
      return "telemetry";
    }
    return "lib";
  }

  private static final class Loggers implements ILoggerFactory {
    private final ConcurrentHashMap<String, Logger> byName = new ConcurrentHashMap<>();

    @Override
    public Logger getLogger(String name) {
      return byName.computeIfAbsent(name, LibraryLogger::new);
    }
  }

  /**
   * Whether a library logger's warnings are about what a client sent rather than about svc: Jetty's
   * HTTP parser warns of a request with a second {@code Host} header, quoting both, and answers it
   * 400. Such lines are debug, like svc's own refusals: at warning level every such request wrote a
   * line of up to 8 KB that its client chose, 72 MB in 5 s from one client.
   */
  static boolean warnsOfClients(String loggerName) {
    return loggerName.equals("org.eclipse.jetty.http.HttpParser");
  }

  /** One library logger: levels mapped, messages formatted SLF4J-style ({@code {}}). */
  static final class LibraryLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;
    private final transient Log log;
    private final boolean ofClients;

    LibraryLogger(String name) {
      this.name = name;
      this.log = Log.tagged(tag(name));
      this.ofClients = warnsOfClients(name);
    }

    private Level level(org.slf4j.event.Level level) {
      return switch (level) {
        case ERROR -> ofClients ? Level.DEBUG : Level.ERROR;
        case WARN -> ofClients ? Level.DEBUG : Level.WARN;
        case INFO -> Level.DEBUG;
        case DEBUG, TRACE -> null;
      };
    }

    @Override
    public boolean isTraceEnabled() {
      return false;
    }

    @Override
    public boolean isDebugEnabled() {
      return false;
    }

    @Override
    public boolean isInfoEnabled() {
      return log.enabled(Level.DEBUG);
    }

    @Override
    public boolean isWarnEnabled() {
      return log.enabled(ofClients ? Level.DEBUG : Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
      return log.enabled(ofClients ? Level.DEBUG : Level.ERROR);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
        org.slf4j.event.Level level,
        Marker marker,
        String pattern,
        Object[] arguments,
        Throwable throwable) {
      Level mapped = level(level);
      if (mapped == null || !log.enabled(mapped)) {
        return;
      }
      String message = MessageFormatter.basicArrayFormat(pattern, arguments);
      log.log(mapped, message, throwable, "logger", name);
    }
  }
}

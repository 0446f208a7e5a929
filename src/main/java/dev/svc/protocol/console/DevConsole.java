package dev.svc.protocol.console;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.json.Json;
import dev.svc.log.LogTail;
import dev.svc.model.Agent;
import dev.svc.model.Model;
import dev.svc.protocol.EventSink;
import dev.svc.protocol.HttpCall;
import dev.svc.protocol.HttpReply;
import dev.svc.runtime.ModelChanges;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The dev console's routes under {@code /ui}: the page itself (three files bundled in the jar, and
 * the ES modules of the npm packages marked and DOMPurify from their Maven Central jars), and
 * {@code GET /ui/events}, a server-sent-events stream of what no protocol carries: the agents'
 * names, the last log lines and every line as written, and each reload of {@code --watch} (or why a
 * change was not reloaded). Everything else the page does, it does with MCP and A2A requests of its
 * own.
 *
 * <p>The page's files hold no project data and are served without a token, since a browser cannot
 * send one when it opens a URL; {@code /ui/events} takes the same token as {@code /mcp} (the HTTP
 * layer admits it before calling {@link #handle}).
 */
public final class DevConsole {
  /** Where the console is served. */
  public static final String PATH = "/ui";

  /** The stream of log lines and reloads. */
  public static final String EVENTS = PATH + "/events";

  /** What a page may load and connect to: this server, nothing else. */
  private static final Map<String, String> PAGE_HEADERS =
      Map.of(
          "Content-Security-Policy",
          "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
              + " img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors"
              + " 'none'",
          "X-Content-Type-Options",
          "nosniff",
          "Referrer-Policy",
          "no-referrer",
          "Cache-Control",
          "no-store");

  /**
   * What every other {@code /ui} answer carries: the stream and the errors (which repeat the path
   * asked for) are never read as anything but what they say they are.
   */
  private static final Map<String, String> NOSNIFF = Map.of("X-Content-Type-Options", "nosniff");

  /** The npm packages the page imports, as their Maven Central jars (org.mvnpm) hold them. */
  static final String MARKED = "/META-INF/resources/_static/marked/17.0.5/lib/marked.esm.js";

  static final String DOMPURIFY = "/META-INF/resources/_static/dompurify/3.4.15/dist/purify.es.mjs";

  /** The page's files, read from the jar the first time the console serves one. */
  private static final class Assets {
    static final Map<String, Asset> BY_PATH =
        Map.of(
            PATH,
            Asset.load("/dev/svc/console/index.html", "text/html; charset=utf-8"),
            PATH + "/",
            Asset.load("/dev/svc/console/index.html", "text/html; charset=utf-8"),
            PATH + "/console.js",
            Asset.load("/dev/svc/console/console.js", "text/javascript; charset=utf-8"),
            PATH + "/console.css",
            Asset.load("/dev/svc/console/console.css", "text/css; charset=utf-8"),
            PATH + "/vendor/marked.js",
            Asset.load(MARKED, "text/javascript; charset=utf-8"),
            PATH + "/vendor/purify.js",
            Asset.load(DOMPURIFY, "text/javascript; charset=utf-8"));
  }

  /** The page's own paths, served without a token. */
  private static final Set<String> PAGE_FILES =
      Set.of(
          PATH,
          PATH + "/",
          PATH + "/console.js",
          PATH + "/console.css",
          PATH + "/vendor/marked.js",
          PATH + "/vendor/purify.js");

  /** Events a slow page has not read yet; beyond, log lines are dropped (and counted). */
  private static final int BACKLOG = 2000;

  private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

  private final Supplier<Model> model;
  private final Set<Watcher> watchers = new CopyOnWriteArraySet<>();
  private volatile boolean closed;

  /** Log lines a page opened later starts with. */
  private static final int RECENT_LINES = 500;

  public DevConsole(Supplier<Model> model) {
    this.model = model;
    LogTail.remember(RECENT_LINES);
  }

  /** Whether {@code path} is the console's, {@code /ui} or below it. */
  public static boolean owns(String path) {
    return path.equals(PATH) || path.startsWith(PATH + "/");
  }

  /** Whether {@code path} is one of the page's own files, served without a token. */
  public static boolean isPageFile(String path) {
    return PAGE_FILES.contains(path);
  }

  public HttpReply handle(HttpCall call) {
    if (!call.method().equals("GET") && !call.method().equals("HEAD")) {
      return HttpReply.error(
          405,
          Map.of("Allow", "GET, HEAD", "X-Content-Type-Options", "nosniff"),
          "Method not allowed: " + call.method() + " " + call.path());
    }
    Asset asset = PAGE_FILES.contains(call.path()) ? Assets.BY_PATH.get(call.path()) : null;
    if (asset != null) {
      return new HttpReply.Body(200, PAGE_HEADERS, asset.contentType(), asset.bytes());
    }
    if (call.path().equals(EVENTS)) {
      // HEAD gets the status only: a stream that sends nothing would stay open until the page left
      return call.method().equals("HEAD")
          ? new HttpReply.Empty(
              200, Map.of("Content-Type", "text/event-stream", "X-Content-Type-Options", "nosniff"))
          : new HttpReply.Stream(200, NOSNIFF, this::stream);
    }
    return HttpReply.error(
        404,
        NOSNIFF,
        "not found: "
            + call.path()
            + " (the dev console is "
            + PATH
            + "/, its events "
            + EVENTS
            + ")");
  }

  /** Tells every open page that the project was reloaded, and what changed. */
  public void reloaded(ModelChanges changes) {
    ObjectNode event = described("reload");
    ArrayNode tools = event.putArray("changedTools");
    changes.tools().forEach(tools::add);
    event.put("promptsChanged", changes.promptsChanged());
    event.put("resourcesChanged", changes.resourcesChanged());
    watchers.forEach(w -> w.offer(event));
  }

  /**
   * Tells every open page that a reload was refused (the project has errors, or cannot be served)
   * and why: each diagnostic as {@code svc validate} prints it. The previous project keeps serving.
   */
  public void reloadFailed(List<Diagnostic> problems) {
    ObjectNode event = Json.NODES.objectNode().put("type", "reloadFailed");
    ArrayNode lines = event.putArray("problems");
    problems.forEach(problem -> lines.add(problem.render()));
    watchers.forEach(w -> w.offer(event));
  }

  /** Ends every open stream (the server is stopping). */
  public void close() {
    closed = true;
    watchers.forEach(Watcher::wake);
  }

  @SuppressWarnings("try") // the subscription only needs closing
  private void stream(EventSink sink) {
    Watcher watcher = new Watcher(new ArrayBlockingQueue<>(BACKLOG));
    watchers.add(watcher);
    try (LogTail.Subscription lines =
        LogTail.listen(
            line -> watcher.offer(Json.NODES.objectNode().put("type", "log").put("line", line)))) {
      if (!sink.data(described("hello"))) {
        return;
      }
      while (sink.isOpen() && !closed) {
        JsonNode next = watcher.events().poll(KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS);
        if (closed) {
          return;
        }
        int dropped = watcher.takeDropped();
        if (dropped > 0
            && !sink.data(Json.NODES.objectNode().put("type", "dropped").put("lines", dropped))) {
          return;
        }
        if (!(next == null ? sink.comment("keep-alive") : sink.data(next))) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      watchers.remove(watcher);
    }
  }

  /** An event naming the service and its agents (which no protocol lists). */
  private ObjectNode described(String type) {
    Model current = model.get();
    ObjectNode event = Json.NODES.objectNode().put("type", type);
    event.put("service", current.service().name());
    current.service().version().ifPresent(v -> event.put("version", v));
    ArrayNode agents = event.putArray("agents");
    for (Agent agent : current.agents()) {
      ObjectNode entry = agents.addObject().put("name", agent.name());
      agent.description().ifPresent(d -> entry.put("description", d));
    }
    return event;
  }

  /** One open page's queue of events. */
  private record Watcher(BlockingQueue<JsonNode> events, AtomicInteger dropped) {
    Watcher(BlockingQueue<JsonNode> events) {
      this(events, new AtomicInteger());
    }

    void offer(JsonNode event) {
      if (!events.offer(event)) {
        dropped.incrementAndGet();
      }
    }

    /** Ends the wait for the next event (an event that makes the stream check why). */
    void wake() {
      events.clear();
      events.offer(Json.NODES.objectNode().put("type", "bye"));
    }

    int takeDropped() {
      return dropped.getAndSet(0);
    }
  }

  /** One of the page's files, read from the jar once. */
  private record Asset(String contentType, byte[] bytes) {
    static Asset load(String name, String contentType) {
      try (InputStream in = DevConsole.class.getResourceAsStream(name)) {
        if (in == null) {
          throw new IllegalStateException("the dev console's " + name + " is missing from the jar");
        }
        return new Asset(contentType, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}

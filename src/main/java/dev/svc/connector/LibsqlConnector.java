package dev.svc.connector;

import dev.svc.call.Deadline;
import dev.svc.call.HeaderValues;
import dev.svc.json.Jackson;
import dev.svc.json.JsonFootprint;
import dev.svc.model.Statement;
import dev.svc.net.LimitedBody;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Remote libSQL (Turso, {@code sqld}) over Hrana over HTTP: our own small client of the pipeline
 * protocol (<a href="https://github.com/tursodatabase/libsql/blob/main/docs/HRANA_3_SPEC.md">Hrana
 * 3 spec, "Hrana over HTTP"</a>) on {@code java.net.http}.
 *
 * <p>{@link #check} probes the protocol version ({@code GET /v3}, else {@code GET /v2}) and runs
 * {@code SELECT 1}, which proves the auth token. Each call is one pipeline, {@code POST
 * /v3/pipeline} (or {@code /v2/pipeline}): an {@code execute} request with the statement and its
 * typed positional arguments, then {@code close}, so no stream (baton) outlives the call. Values
 * are always Hrana arguments, never spliced into the SQL.
 *
 * <p><b>Memory.</b> Hrana's {@code execute} answers with the whole result in one JSON document, so
 * a result cannot be stopped at the call's window: the reply is read up to the result ceiling of
 * {@link ResultMemory} (a longer one is cut off unread and the call refused), then cut to the
 * window and counted. (Hrana 3's streaming cursor requests could stop earlier; not used yet.)
 *
 * <p><b>Deadlines.</b> The HTTP exchange, its answer's body included, gets what is left of the
 * call's deadline; past it the request is abandoned (Hrana has no cancel: the server may still
 * finish the statement). An interrupted call is abandoned the same way.
 *
 * <p><b>Errors.</b> An error result of the statement is a {@link StatementFailedException} with the
 * server's message; an unreachable server, a refused token or a server error (HTTP 5xx) is a {@link
 * ConnectorUnavailableException}.
 */
public final class LibsqlConnector implements Connector {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final JsonMapper JSON = Jackson.MAPPER;
  private static final String CHECK_QUERY = "SELECT 1";

  /** The most bytes of a version probe's answer read; {@code sqld} answers with none. */
  static final int PROBE_BODY_BYTES = 64 * 1024;

  private final LibsqlSettings settings;
  private final String description;
  private final HttpClient http;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile int version; // 0 until probed

  LibsqlConnector(ResolvedAdapter adapter) {
    this.settings = LibsqlSettings.of(adapter);
    this.description = "sqlite adapter `" + adapter.name() + "`";
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .version(settings.secure() ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
            .build();
  }

  LibsqlSettings settings() {
    return settings;
  }

  /** The Hrana over HTTP version in use: 3 or 2; 0 before the first check or call. */
  int version() {
    return version;
  }

  @Override
  public void check(Deadline deadline) {
    try {
      probe(deadline);
      execute(new Statement.Sql(CHECK_QUERY, CHECK_QUERY, List.of()), Map.of(), deadline);
    } catch (StatementFailedException e) {
      throw new ConnectorUnavailableException(
          cannotConnect()
              + (e.timedOut()
                  ? "timed out after " + JdbcFailures.words(deadline.timeout())
                  : e.getMessage()),
          e);
    }
  }

  @Override
  public JsonNode execute(
      Statement statement,
      Map<String, Object> values,
      Deadline deadline,
      StatementOptions options) {
    if (!(statement instanceof Statement.Sql sql)) {
      throw new IllegalArgumentException(description + " runs SQL statements only");
    }
    try {
      return run(sql, values, deadline, options);
    } catch (StatementFailedException | ConnectorUnavailableException e) {
      throw BoundValueRedaction.of(values).apply(e);
    }
  }

  private JsonNode run(
      Statement.Sql sql, Map<String, Object> values, Deadline deadline, StatementOptions options) {
    ObjectNode stmt = JsonValues.NODES.objectNode();
    stmt.put("sql", sql.sql());
    stmt.set("args", HranaValues.arguments(sql, values));
    stmt.put("want_rows", true);
    ObjectNode body = JsonValues.NODES.objectNode();
    body.putNull("baton");
    ArrayNode requests = body.putArray("requests");
    if (options.readOnly()) {
      requests.addObject().put("type", "batch").set("batch", readOnlyBatch(stmt));
    } else {
      requests.addObject().put("type", "execute").set("stmt", stmt);
    }
    requests.addObject().put("type", "close");
    if (version == 0) {
      probe(deadline);
    }
    return ResultMemory.counting(memory -> rows(body, deadline, options, memory));
  }

  /** Sends the pipeline and reads the statement's rows within {@code options}' window. */
  private JsonNode rows(
      ObjectNode body, Deadline deadline, StatementOptions options, ResultMemory.Account memory) {
    JsonNode reply = send(pipeline(body), deadline, memory);
    JsonNode result = reply.path("results").path(0);
    return switch (result.path("type").asString("")) {
      case "ok" -> {
        JsonNode rows;
        try {
          rows =
              options.window(
                  HranaValues.rows(
                      options.readOnly()
                          ? readOnlyResult(result.path("response").path("result"))
                          : result.path("response").path("result")));
        } catch (HranaValues.NotHrana e) {
          throw new ConnectorUnavailableException(
              description + " answered a value that is not Hrana's: " + e.getMessage(), e);
        }
        memory.add(JsonFootprint.of(rows));
        yield rows;
      }
      case "error" -> throw failed(result.path("error"));
      default ->
          throw new ConnectorUnavailableException(
              description + " answered the pipeline without a result for the statement");
    };
  }

  /**
   * A {@code read_only} statement as one Hrana batch on the call's own stream: {@code PRAGMA
   * query_only = 1}, the statement only if that succeeded (a batch condition), then {@code PRAGMA
   * query_only = 0} whatever happened. One round trip, like a plain call; a server that refuses the
   * pragma refuses the call rather than run the statement writable.
   */
  private static ObjectNode readOnlyBatch(ObjectNode stmt) {
    ObjectNode batch = JsonValues.NODES.objectNode();
    ArrayNode steps = batch.putArray("steps");
    steps.addObject().putObject("stmt").put("sql", "PRAGMA query_only = 1");
    ObjectNode run = steps.addObject();
    run.putObject("condition").put("type", "ok").put("step", 0);
    run.set("stmt", stmt);
    steps.addObject().putObject("stmt").put("sql", "PRAGMA query_only = 0");
    return batch;
  }

  /** The statement's result out of a read-only batch's result, or its failure. */
  private JsonNode readOnlyResult(JsonNode batch) {
    JsonNode errors = batch.path("step_errors");
    if (errors.path(1).isObject()) {
      throw failed(errors.path(1));
    }
    JsonNode result = batch.path("step_results").path(1);
    if (errors.path(0).isObject() || !result.isObject()) {
      throw new StatementFailedException(
          "the database did not accept running the statement read-only"
              + (errors.path(0).isObject()
                  ? ": " + SqlDialect.firstLine(errors.path(0).path("message").asString(null))
                  : ""),
          false,
          null);
    }
    return result;
  }

  private static StatementFailedException failed(JsonNode error) {
    return new StatementFailedException(
        SqlDialect.firstLine(error.path("message").asString(null)), false, null);
  }

  /**
   * Hrana's {@code describe} request: the statement's result columns without running it. SQLite
   * types values, not columns, so each column may hold any JSON value.
   */
  @Override
  public Optional<ResultShape> describe(
      Statement statement, Map<String, Object> samples, Deadline deadline) {
    if (!(statement instanceof Statement.Sql sql)) {
      return Optional.empty();
    }
    ObjectNode body = JsonValues.NODES.objectNode();
    body.putNull("baton");
    ArrayNode requests = body.putArray("requests");
    requests.addObject().put("type", "describe").put("sql", sql.sql());
    requests.addObject().put("type", "close");
    if (version == 0) {
      probe(deadline);
    }
    JsonNode result =
        ResultMemory.counting(memory -> send(pipeline(body), deadline, memory))
            .path("results")
            .path(0);
    if (!result.path("type").asString("").equals("ok")) {
      throw failed(result.path("error"));
    }
    JsonNode columns = result.path("response").path("result").path("cols");
    if (columns.isEmpty()) {
      return Optional.of(new ResultShape.RowsAffected());
    }
    List<ResultShape.Column> shape = new ArrayList<>();
    for (JsonNode column : columns) {
      shape.add(new ResultShape.Column(column.path("name").asString(""), List.of(), true));
    }
    return Optional.of(new ResultShape.Rows(shape));
  }

  /** Finds the newest protocol version the server speaks: v3, else v2. */
  private void probe(Deadline deadline) {
    for (int candidate : new int[] {3, 2}) {
      Reply response = probe(request(settings.versionUri(candidate)).GET(), deadline);
      int status = response.status();
      if (status / 100 == 2) {
        version = candidate;
        return;
      }
      if (status == 401 || status == 403) {
        throw refused(status);
      }
      if (status / 100 == 5) {
        throw serverError(response);
      }
    }
    throw new ConnectorUnavailableException(
        cannotConnect()
            + "the server does not speak Hrana over HTTP v3 or v2 (GET /v3 and /v2 failed)");
  }

  private HttpRequest.Builder pipeline(ObjectNode body) {
    return request(settings.pipelineUri(version))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
  }

  private HttpRequest.Builder request(URI uri) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri).header("Accept", "application/json");
    if (settings.token().isPresent()) {
      if (!HeaderValues.safe(settings.token().get())) {
        // the HTTP client's own error would quote the token
        throw new ConnectorUnavailableException(
            cannotConnect()
                + "the auth token (option authToken) holds a character a header cannot carry"
                + " (a control character, or one outside ASCII such as a typographic quote)");
      }
      builder.header("Authorization", "Bearer " + settings.token().get());
    }
    return builder;
  }

  /**
   * Sends a pipeline; its reply is read whole (Hrana's {@code execute} answers with one document),
   * up to the result ceiling of {@code memory}: a longer reply is cut off unread and refused.
   */
  private JsonNode send(
      HttpRequest.Builder request, Deadline deadline, ResultMemory.Account memory) {
    HttpResponse<Optional<byte[]>> answer =
        exchange(request, deadline, LimitedBody.upTo(memory.ceilingBytes()));
    if (answer.body().isEmpty()) {
      throw memory.ceilingRefusal();
    }
    Reply response = new Reply(answer.statusCode(), answer.body().get());
    int status = response.status();
    if (status == 401 || status == 403) {
      throw refused(status);
    }
    if (status / 100 == 5 || status == 404) {
      throw serverError(status, new String(response.body(), StandardCharsets.UTF_8));
    }
    if (status / 100 == 3) {
      // not followed (a redirect may point anywhere, a private address included), and no
      // failure of the statement either: the connection string names the wrong place
      throw new ConnectorUnavailableException(
          description
              + " at "
              + settings.location()
              + " answered HTTP "
              + status
              + ", a redirect, which svc does not follow: write the address it redirects to in"
              + " the connection string");
    }
    JsonNode reply;
    try {
      reply = JSON.readTree(response.body());
    } catch (JacksonException e) {
      throw new ConnectorUnavailableException(
          description + " answered HTTP " + status + " without a JSON body", e);
    }
    if (status / 100 != 2) {
      // a request the server could not take (Hrana protocol error): say what it said
      throw new StatementFailedException(
          "the database rejected the request: "
              + SqlDialect.firstLine(reply.path("error").asString(null)),
          false,
          null);
    }
    return reply;
  }

  /**
   * Sends a version probe. Only its status matters (and, for a server error, the start of its
   * body): its body is read up to {@value #PROBE_BODY_BYTES} bytes, so a server answering without
   * end is cut off rather than read whole onto the heap.
   */
  private Reply probe(HttpRequest.Builder request, Deadline deadline) {
    HttpResponse<Optional<byte[]>> answer =
        exchange(request, deadline, LimitedBody.upTo(PROBE_BODY_BYTES));
    if (answer.body().isEmpty()) {
      throw new ConnectorUnavailableException(
          cannotConnect()
              + "the server answered the version probe with a body of more than "
              + PROBE_BODY_BYTES / 1024
              + " KiB");
    }
    return new Reply(answer.statusCode(), answer.body().get());
  }

  /**
   * Sends {@code request} and reads its answer within what is left of {@code deadline}. The HTTP
   * client's own time-out ends with the response's headers, not its body: a server that sent
   * headers and then dribbled the body (a byte a second stays under the result ceiling for a year)
   * held the call past its deadline. So the whole exchange is awaited for the time left, and
   * cancelled (its connection closed) past it.
   */
  private <T> HttpResponse<T> exchange(
      HttpRequest.Builder request, Deadline deadline, HttpResponse.BodyHandler<T> body) {
    if (closed.get()) {
      throw new ConnectorUnavailableException(description + " is closed");
    }
    long remaining = deadline.remainingNanos();
    if (remaining <= 0) {
      throw new StatementFailedException(
          JdbcFailures.statementTimedOut(deadline.timeout()), true, null);
    }
    CompletableFuture<HttpResponse<T>> answer =
        http.sendAsync(request.timeout(Duration.ofNanos(remaining)).build(), body);
    try {
      return answer.get(remaining, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      answer.cancel(true);
      throw new StatementFailedException(
          JdbcFailures.statementTimedOut(deadline.timeout()), true, e);
    } catch (InterruptedException e) {
      answer.cancel(true);
      Thread.currentThread().interrupt();
      throw new StatementFailedException(
          "the call was cancelled before the statement finished", false, e);
    } catch (ExecutionException e) {
      throw failure(e.getCause() == null ? e : e.getCause(), deadline);
    }
  }

  /** What a failed exchange means for the call. */
  private RuntimeException failure(Throwable e, Deadline deadline) {
    return switch (e) {
      case HttpConnectTimeoutException timeout ->
          new ConnectorUnavailableException(cannotConnect() + "timed out while connecting", e);
      case HttpTimeoutException timeout ->
          new StatementFailedException(JdbcFailures.statementTimedOut(deadline.timeout()), true, e);
      case IOException io when closed.get() ->
          new ConnectorUnavailableException(description + " is closed", e);
      case IOException io ->
          new ConnectorUnavailableException(
              cannotConnect()
                  + NetworkFailures.reason(e).orElse(SqlDialect.firstLine(e.getMessage())),
              e);
      case RuntimeException unchecked -> unchecked;
      case Error error -> throw error;
      default -> new ConnectorUnavailableException(cannotConnect() + e, e);
    };
  }

  private ConnectorUnavailableException refused(int status) {
    return new ConnectorUnavailableException(
        cannotConnect()
            + "authentication failed (HTTP "
            + status
            + (settings.token().isPresent()
                ? "): the server refused the auth token"
                : "): the server needs an auth token (option authToken)"));
  }

  private ConnectorUnavailableException serverError(Reply response) {
    return serverError(response.status(), new String(response.body(), StandardCharsets.UTF_8));
  }

  /** What the server answered: its status, and its whole body (within the exchange's limit). */
  private record Reply(int status, byte[] body) {}

  private ConnectorUnavailableException serverError(int status, String text) {
    String body = text == null ? "" : text.strip();
    if (settings.token().isPresent() && settings.token().get().length() >= 8) {
      body = body.replace(settings.token().get(), "[redacted]"); // a server echoing the request
    }
    return new ConnectorUnavailableException(
        description
            + " at "
            + settings.location()
            + " answered HTTP "
            + status
            + (body.isEmpty()
                ? ""
                : ": "
                    + SqlDialect.firstLine(body.length() > 200 ? body.substring(0, 200) : body)));
  }

  private String cannotConnect() {
    return "cannot connect to " + description + " at " + settings.location() + ": ";
  }

  /** Stops the HTTP client; calls in flight fail. Never throws. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      http.shutdownNow();
    }
  }

  @Override
  public String toString() {
    return "LibsqlConnector(" + description + ", Hrana over HTTP v" + version + ")";
  }
}

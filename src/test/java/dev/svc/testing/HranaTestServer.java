package dev.svc.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.sqlite.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A small Hrana-over-HTTP server for tests, backed by a SQLite file: the version probe ({@code GET
 * /v2}, {@code /v3}), and pipelines ({@code POST /v2/pipeline}, {@code /v3/pipeline}) of {@code
 * execute}, {@code batch}, {@code describe} and {@code close} requests with typed positional
 * arguments, answered the way {@code sqld} answers (results, typed values, error results, HTTP 401
 * for a wrong bearer token). Each pipeline runs on its own connection. SQL gets a {@code sleep(ms)}
 * function (at most 5 s) for deadline tests. Every request is recorded for assertions.
 */
public final class HranaTestServer implements AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final long MAX_SLEEP_MILLIS = 5_000;

  /** One request as received. */
  public record Received(String method, URI uri, Optional<String> authorization, String body) {}

  private final HttpServer server;
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final String url;
  private final Set<Integer> versions;
  private final Optional<String> token;
  private final List<Received> received = new CopyOnWriteArrayList<>();

  /**
   * Starts on a free loopback port.
   *
   * @param database the SQLite file behind it
   * @param versions the Hrana over HTTP versions it speaks (2, 3)
   * @param token the bearer token it requires, if any
   */
  public HranaTestServer(Path database, Set<Integer> versions, Optional<String> token) {
    this.url = "jdbc:sqlite:" + database;
    this.versions = Set.copyOf(versions);
    this.token = token;
    try {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
    try (Connection connection = DriverManager.getConnection(url);
        Statement wal = connection.createStatement()) {
      wal.execute("PRAGMA journal_mode=WAL");
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** {@code http://127.0.0.1:<port>}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port();
  }

  public List<Received> received() {
    return List.copyOf(received);
  }

  /** The pipelines received, in order. */
  public List<Received> pipelines() {
    return received.stream().filter(r -> r.method().equals("POST")).toList();
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Optional<String> authorization =
          Optional.ofNullable(exchange.getRequestHeaders().getFirst("Authorization"));
      received.add(
          new Received(exchange.getRequestMethod(), exchange.getRequestURI(), authorization, body));
      String path = exchange.getRequestURI().getPath();
      int version = path.startsWith("/v3") ? 3 : path.startsWith("/v2") ? 2 : 0;
      if (!versions.contains(version)) {
        reply(exchange, 404, "{\"error\": \"not found\"}");
        return;
      }
      if (token.isPresent() && !authorization.equals(Optional.of("Bearer " + token.get()))) {
        reply(exchange, 401, "{\"error\": \"Unauthorized\"}");
        return;
      }
      if (exchange.getRequestMethod().equals("GET") && path.equals("/v" + version)) {
        reply(exchange, 200, "");
        return;
      }
      if (!exchange.getRequestMethod().equals("POST")
          || !path.equals("/v" + version + "/pipeline")) {
        reply(exchange, 404, "{\"error\": \"not found\"}");
        return;
      }
      JsonNode request;
      try {
        request = JSON.readTree(body);
      } catch (RuntimeException e) {
        reply(exchange, 400, "{\"error\": \"invalid JSON\"}");
        return;
      }
      ObjectNode response = JSON.createObjectNode();
      response.putNull("baton");
      response.putNull("base_url");
      ArrayNode results = response.putArray("results");
      try (Connection connection = DriverManager.getConnection(url)) {
        Function.create(connection, "sleep", new Sleep());
        for (JsonNode step : request.path("requests")) {
          results.add(step(connection, step, version));
        }
      } catch (SQLException e) {
        reply(exchange, 500, "{\"error\": " + JSON.writeValueAsString(e.getMessage()) + "}");
        return;
      }
      reply(exchange, 200, JSON.writeValueAsString(response));
    }
  }

  private static ObjectNode step(Connection connection, JsonNode step, int version) {
    ObjectNode result = JSON.createObjectNode();
    switch (step.path("type").asString("")) {
      case "close" -> result.put("type", "ok").putObject("response").put("type", "close");
      case "execute" -> {
        try {
          ObjectNode response = result.put("type", "ok").putObject("response");
          response.put("type", "execute");
          response.set("result", execute(connection, step.path("stmt"), version));
        } catch (SQLException e) {
          result.removeAll();
          result.put("type", "error");
          result
              .putObject("error")
              .put("message", "SQLite error: " + message(e))
              .put("code", "SQLITE_ERROR");
        }
      }
      case "batch" -> {
        ObjectNode response = result.put("type", "ok").putObject("response");
        response.put("type", "batch");
        response.set("result", batch(connection, step.path("batch").path("steps"), version));
      }
      case "describe" -> {
        try {
          ObjectNode response = result.put("type", "ok").putObject("response");
          response.put("type", "describe");
          response.set("result", describe(connection, step.path("sql").asString()));
        } catch (SQLException e) {
          result.removeAll();
          result.put("type", "error");
          result.putObject("error").put("message", "SQLite error: " + message(e));
        }
      }
      default ->
          result
              .put("type", "error")
              .putObject("error")
              .put("message", "unsupported request " + step.path("type"));
    }
    return result;
  }

  /** A Hrana batch: steps in order, each run only when its condition (ok, error, not) holds. */
  private static ObjectNode batch(Connection connection, JsonNode steps, int version) {
    ObjectNode result = JSON.createObjectNode();
    ArrayNode results = result.putArray("step_results");
    ArrayNode errors = result.putArray("step_errors");
    for (JsonNode step : steps) {
      if (step.has("condition") && !holds(step.path("condition"), results, errors)) {
        results.addNull();
        errors.addNull();
        continue;
      }
      try {
        results.add(execute(connection, step.path("stmt"), version));
        errors.addNull();
      } catch (SQLException e) {
        results.addNull();
        errors
            .addObject()
            .put("message", "SQLite error: " + message(e))
            .put("code", "SQLITE_ERROR");
      }
    }
    return result;
  }

  private static boolean holds(JsonNode condition, ArrayNode results, ArrayNode errors) {
    int step = condition.path("step").asInt(-1);
    return switch (condition.path("type").asString("")) {
      case "ok" -> step >= 0 && step < results.size() && !results.get(step).isNull();
      case "error" -> step >= 0 && step < errors.size() && !errors.get(step).isNull();
      case "not" -> !holds(condition.path("cond"), results, errors);
      default -> false;
    };
  }

  private static ObjectNode describe(Connection connection, String sql) throws SQLException {
    ObjectNode result = JSON.createObjectNode();
    ArrayNode columns = result.putArray("cols");
    result.putArray("params");
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      ResultSetMetaData meta = statement.getMetaData();
      int count;
      try {
        count = meta == null ? 0 : meta.getColumnCount();
      } catch (SQLException noColumns) {
        count = 0; // sqlite-jdbc: "column 1 out of bounds [1,0]" for a statement without columns
      }
      for (int i = 1; i <= count; i++) {
        columns.addObject().put("name", meta.getColumnLabel(i)).putNull("decltype");
      }
    }
    result.put("is_explain", false).put("is_readonly", false);
    return result;
  }

  private static ObjectNode execute(Connection connection, JsonNode stmt, int version)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(stmt.path("sql").asString())) {
      int index = 1;
      for (JsonNode argument : stmt.path("args")) {
        bind(statement, index++, argument);
      }
      ObjectNode result = JSON.createObjectNode();
      ArrayNode columns = result.putArray("cols");
      ArrayNode rows = result.putArray("rows");
      if (statement.execute()) {
        try (ResultSet resultSet = statement.getResultSet()) {
          ResultSetMetaData meta = resultSet.getMetaData();
          for (int i = 1; i <= meta.getColumnCount(); i++) {
            columns
                .addObject()
                .put("name", meta.getColumnLabel(i))
                .put("decltype", meta.getColumnTypeName(i));
          }
          while (resultSet.next()) {
            ArrayNode row = rows.addArray();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
              row.add(value(resultSet.getObject(i)));
            }
          }
        }
        result.put("affected_row_count", 0);
      } else {
        result.put("affected_row_count", statement.getUpdateCount());
      }
      try (Statement last = connection.createStatement();
          ResultSet id = last.executeQuery("SELECT last_insert_rowid()")) {
        result.put("last_insert_rowid", id.next() ? id.getString(1) : null);
      }
      if (version >= 3) {
        result.put("rows_read", rows.size()).put("rows_written", 0).put("query_duration_ms", 0.1);
      }
      return result;
    }
  }

  private static void bind(PreparedStatement statement, int index, JsonNode argument)
      throws SQLException {
    switch (argument.path("type").asString("")) {
      case "integer" -> statement.setLong(index, Long.parseLong(argument.path("value").asString()));
      case "float" -> statement.setDouble(index, argument.path("value").asDouble());
      case "text" -> statement.setString(index, argument.path("value").asString());
      case "blob" ->
          statement.setBytes(index, Base64.getDecoder().decode(argument.path("base64").asString()));
      case "null" -> statement.setNull(index, java.sql.Types.NULL);
      default -> throw new SQLException("unknown value type " + argument.path("type"));
    }
  }

  private static ObjectNode value(Object value) {
    ObjectNode node = JSON.createObjectNode();
    return switch (value) {
      case null -> node.put("type", "null");
      case Integer i -> node.put("type", "integer").put("value", i.toString());
      case Long l -> node.put("type", "integer").put("value", l.toString());
      case Double d -> node.put("type", "float").put("value", d);
      case byte[] b ->
          node.put("type", "blob")
              .put("base64", Base64.getEncoder().withoutPadding().encodeToString(b));
      default -> node.put("type", "text").put("value", value.toString());
    };
  }

  private static String message(SQLException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    int open = message.indexOf('(');
    return open >= 0 && message.endsWith(")")
        ? message.substring(open + 1, message.length() - 1)
        : message;
  }

  private static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
  }

  /** {@code sleep(ms)}: waits, at most 5 s, so that an abandoned statement ends by itself. */
  private static final class Sleep extends Function {
    @Override
    protected void xFunc() throws SQLException {
      try {
        Thread.sleep(Math.min(MAX_SLEEP_MILLIS, value_long(0)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      result(1);
    }
  }
}

package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.log.Level;
import dev.svc.testing.CapturedLog;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Mutated MCP requests, thousands of them, at a real server: valid requests of both revisions
 * (2025-11-25 in a session, 2026-07-28 stateless) with a value, a key, a header or the bytes
 * themselves changed at random. Whatever arrives, the server answers it with a status and, where it
 * answers JSON, with well-formed JSON-RPC; never with a 5xx, never by closing without a word, never
 * with an error in its own log; and it serves a plain call afterwards.
 *
 * <p>The campaign is the same on every run (fixed seeds). A longer or another one: {@code
 * -Dsvc.fuzz.seed=N -Dsvc.fuzz.requests=M}; a failure names the seed and the request that caused
 * it, so it can be replayed.
 */
class McpWireFuzzIT {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static final long SEED = Long.getLong("svc.fuzz.seed", 20261127L);
  private static final int REQUESTS = Integer.getInteger("svc.fuzz.requests", 1500);

  private static final List<String> METHODS =
      List.of(
          "initialize",
          "ping",
          "tools/list",
          "tools/call",
          "prompts/list",
          "prompts/get",
          "resources/list",
          "resources/read",
          "resources/templates/list",
          "completion/complete",
          "logging/setLevel",
          "server/discover",
          "notifications/initialized",
          "notifications/cancelled",
          "notifications/progress",
          "nope/never");

  @TempDir static Path dir;
  static Instance instance;
  static String session;

  @BeforeAll
  static void start() {
    instance =
        RunningProject.start(
            dir,
            """
            == .svc
            name: shop
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/get_product/config.terse
            description: A product.
            use: db
            statement: SELECT {{ inputs.id }} AS id, {{ inputs.name }} AS name
            inputs:
              id: {type: int, description: The product's id}
              name: {type: string, description: A name, required: false}
            == app/tools/greet/config.terse
            description: Greets.
            inputs:
              name: {type: string, description: Who}
              times: {type: int, description: How often, required: false}
            == app/tools/greet/handler.ts
            export default ({ inputs }) => ({ greeting: "Hello " + inputs.name, n: inputs.times });
            == app/resources/doc/config.terse
            name: doc
            uri: docs://doc
            file: doc.md
            == app/resources/doc/doc.md
            the doc
            == app/prompts/hello.terse
            arguments:
              name: {description: Who, required: true}
            messages:
              - role: user
                text: Hello {{ name }}
            """);
    McpHttpClient client = new McpHttpClient(instance.baseUrl());
    client.initialize();
    session = client.session().orElseThrow();
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  @Test
  void mutatedRequestsOneAfterAnotherGetAPreciseAnswerAndTheServerKeepsServing() throws Exception {
    try (CapturedLog log = CapturedLog.asJson(Level.WARN)) {
      List<String> faults = campaign(SEED, REQUESTS);
      assertThat(faults).as("seed %d: requests answered wrongly", SEED).isEmpty();
      assertServesAPlainCall();
      assertThat(errorLines(log.text())).as("seed %d: errors in svc's log", SEED).isEmpty();
    }
  }

  @Test
  void mutatedRequestsFromEightClientsAtOnceGetAPreciseAnswerAndTheServerKeepsServing()
      throws Exception {
    try (CapturedLog log = CapturedLog.asJson(Level.WARN);
        ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<List<String>>> runs = new ArrayList<>();
      for (int c = 0; c < 8; c++) {
        long seed = SEED + 1_000 + c;
        runs.add(clients.submit(() -> campaign(seed, REQUESTS / 8)));
      }
      List<String> faults = new ArrayList<>();
      for (Future<List<String>> run : runs) {
        faults.addAll(run.get());
      }
      assertThat(faults).as("seeds %d…%d", SEED + 1_000, SEED + 1_007).isEmpty();
      assertServesAPlainCall();
      assertThat(errorLines(log.text())).as("errors in svc's log").isEmpty();
    }
  }

  private static void assertServesAPlainCall() {
    McpHttpClient client = new McpHttpClient(instance.baseUrl());
    client.useSession(session);
    assertThat(
            client
                .call("get_product", "{\"id\":3}")
                .path("result")
                .path("structuredContent")
                .toString())
        .contains("\"id\":3");
    assertThat(client.call("greet", "{\"name\":\"Ada\"}").toString()).contains("Hello Ada");
  }

  /** The log's error lines (JSON lines at level error). */
  private static List<String> errorLines(String log) {
    List<String> errors = new ArrayList<>();
    for (String line : log.split("\n")) {
      if (line.contains("\"level\":\"error\"")) {
        errors.add(line.length() > 2_000 ? line.substring(0, 2_000) + "…" : line);
      }
    }
    return errors;
  }

  /** Sends {@code count} mutated requests; returns what was wrong with the answers. */
  private static List<String> campaign(long seed, int count) throws IOException {
    Random random = new Random(seed);
    List<String> faults = new ArrayList<>();
    for (int i = 0; i < count && faults.size() < 10; i++) {
      Request request = mutate(seed(random), random);
      String fault = check(request, exchange(request));
      if (fault != null) {
        faults.add("seed " + seed + " #" + i + ": " + fault + "\n  request: " + request.shown());
      }
    }
    return faults;
  }

  /** A request as sent: headers (in order, names as written) and body bytes. */
  private record Request(String method, Map<String, String> headers, byte[] body) {
    String shown() {
      String text = new String(body, StandardCharsets.UTF_8);
      return headers
          + " "
          + (text.length() > 600 ? text.substring(0, 600) + "… (" + text.length() + ")" : text);
    }
  }

  private record Answer(int status, Map<String, String> headers, String body) {}

  // --- seeds: valid requests ---

  private static Request seed(Random random) {
    boolean stateless = random.nextInt(3) == 0;
    String method;
    ObjectNode params = NODES.objectNode();
    switch (random.nextInt(11)) {
      case 0 -> {
        method = "tools/call";
        params.put("name", "get_product");
        params.putObject("arguments").put("id", random.nextInt(100)).put("name", "pen");
      }
      case 1 -> {
        method = "tools/call";
        params.put("name", "greet");
        params.putObject("arguments").put("name", "Ada").put("times", 2);
      }
      case 2 -> method = "tools/list";
      case 3 -> {
        method = "prompts/get";
        params.put("name", "hello");
        params.putObject("arguments").put("name", "Bob");
      }
      case 4 -> {
        method = "resources/read";
        params.put("uri", "docs://doc");
      }
      case 5 -> {
        method = "completion/complete";
        params.putObject("ref").put("type", "ref/prompt").put("name", "hello");
        params.putObject("argument").put("name", "name").put("value", "B");
      }
      case 6 -> {
        method = "logging/setLevel";
        params.put("level", "info");
      }
      case 7 -> {
        method = "notifications/cancelled";
        params.put("requestId", 5).put("reason", "because");
      }
      case 8 -> {
        method = "initialize";
        params.put("protocolVersion", "2025-11-25");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "fuzz").put("version", "1");
        stateless = false;
      }
      case 9 -> method = stateless ? "server/discover" : "ping";
      default -> method = "resources/list";
    }
    ObjectNode body = NODES.objectNode();
    body.put("jsonrpc", "2.0");
    if (!method.startsWith("notifications/")) {
      body.put("id", random.nextInt(1_000));
    }
    body.put("method", method);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Host", "localhost");
    headers.put("Content-Type", "application/json");
    headers.put("Accept", "application/json, text/event-stream");
    if (stateless) {
      params.set("_meta", StatelessMcpClient.meta());
      String[] standard = StatelessMcpClient.standardHeaders(method, params);
      for (int h = 0; h + 1 < standard.length; h += 2) {
        headers.put(standard[h], standard[h + 1]);
      }
    } else if (!method.equals("initialize")) {
      headers.put("Mcp-Session-Id", session);
      headers.put("MCP-Protocol-Version", "2025-11-25");
    }
    body.set("params", params);
    return new Request(method, headers, JSON.writeValueAsBytes(body));
  }

  // --- mutations ---

  private static Request mutate(Request valid, Random random) {
    int mutations = 1 + random.nextInt(3);
    Request request = valid;
    for (int m = 0; m < mutations; m++) {
      request =
          switch (random.nextInt(10)) {
            case 0, 1, 2, 3 -> mutateTree(request, random);
            case 4, 5 -> mutateBytes(request, random);
            case 6, 7, 8 -> mutateHeader(request, random);
            default -> request;
          };
    }
    return request;
  }

  private static Request mutateTree(Request request, Random random) {
    JsonNode tree;
    try {
      tree = JSON.readTree(request.body());
    } catch (RuntimeException e) {
      return request; // already broken bytes
    }
    List<JsonNode> containers = new ArrayList<>();
    collect(tree, containers);
    if (containers.isEmpty()) {
      return request;
    }
    JsonNode target = containers.get(random.nextInt(containers.size()));
    if (target instanceof ObjectNode object) {
      List<String> keys = new ArrayList<>(object.propertyNames());
      String key =
          keys.isEmpty() || random.nextInt(5) == 0
              ? randomKey(random)
              : keys.get(random.nextInt(keys.size()));
      switch (random.nextInt(4)) {
        case 0 -> object.remove(key);
        case 1 -> {
          JsonNode moved = object.remove(key);
          if (moved != null) {
            object.set(randomKey(random), moved);
          }
        }
        default -> object.set(key, randomValue(random, 0));
      }
    } else if (target instanceof ArrayNode array) {
      if (!array.isEmpty() && random.nextBoolean()) {
        array.set(random.nextInt(array.size()), randomValue(random, 0));
      } else {
        array.add(randomValue(random, 0));
      }
    }
    JsonNode whole = tree;
    if (random.nextInt(12) == 0) { // a batch, which neither revision accepts
      ArrayNode batch = NODES.arrayNode();
      batch.add(tree);
      batch.add(tree);
      whole = batch;
    }
    try {
      return new Request(request.method(), request.headers(), JSON.writeValueAsBytes(whole));
    } catch (RuntimeException e) {
      return request; // nested deeper than Jackson writes: the bytes' mutation covers that
    }
  }

  private static void collect(JsonNode node, List<JsonNode> containers) {
    if (node.isObject() || node.isArray()) {
      containers.add(node);
      for (JsonNode child : node.values()) {
        collect(child, containers);
      }
    }
  }

  private static String randomKey(Random random) {
    List<String> keys =
        List.of(
            "id",
            "method",
            "params",
            "jsonrpc",
            "name",
            "arguments",
            "uri",
            "_meta",
            "progressToken",
            "io.modelcontextprotocol/protocolVersion",
            "io.modelcontextprotocol/clientCapabilities",
            "cursor",
            "level",
            "ref",
            "argument",
            "value",
            "requestId",
            "result",
            "error",
            "__proto__",
            "",
            "\u0000",
            "k".repeat(1 + random.nextInt(5_000)));
    return keys.get(random.nextInt(keys.size()));
  }

  private static JsonNode randomValue(Random random, int depth) {
    return switch (random.nextInt(depth > 3 ? 12 : 15)) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.booleanNode(random.nextBoolean());
      case 2 -> NODES.numberNode(random.nextInt());
      case 3 -> NODES.numberNode(random.nextLong());
      case 4 -> NODES.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
      case 5 ->
          NODES.numberNode(new java.math.BigInteger(1 + random.nextInt(400), random).negate());
      case 6 -> NODES.numberNode(new java.math.BigDecimal("1e" + (random.nextInt(800) - 400)));
      case 7 -> NODES.stringNode(METHODS.get(random.nextInt(METHODS.size())));
      case 8 -> NODES.stringNode(randomText(random, 1 + random.nextInt(40)));
      case 9 -> NODES.stringNode("x".repeat(random.nextInt(200_000)));
      case 10 ->
          NODES.stringNode(
              List.of(
                      "2025-11-25",
                      "2026-07-28",
                      "2025-06-18",
                      "1999-01-01",
                      "get_product",
                      "greet",
                      "hello",
                      "docs://doc",
                      "docs://../../etc/passwd",
                      "file:///etc/passwd",
                      "ref/prompt",
                      "ref/resource",
                      "debug",
                      "emergency",
                      "NaN",
                      "-0",
                      "1e999")
                  .get(random.nextInt(17)));
      case 11 -> NODES.numberNode(random.nextInt(5) - 1);
      case 12 -> {
        ObjectNode object = NODES.objectNode();
        for (int k = random.nextInt(4); k > 0; k--) {
          object.set(randomKey(random), randomValue(random, depth + 1));
        }
        yield object;
      }
      case 13 -> {
        ArrayNode array = NODES.arrayNode();
        for (int k = random.nextInt(4); k > 0; k--) {
          array.add(randomValue(random, depth + 1));
        }
        yield array;
      }
      default -> {
        // nesting (deeper, past any parser's limit, is a mutation of the bytes)
        ArrayNode top = NODES.arrayNode();
        ArrayNode inner = top;
        for (int d = random.nextInt(900); d > 0; d--) {
          inner = inner.addArray();
        }
        yield top;
      }
    };
  }

  private static String randomText(Random random, int length) {
    StringBuilder text = new StringBuilder();
    for (int c = 0; c < length; c++) {
      text.appendCodePoint(
          switch (random.nextInt(5)) {
            case 0 -> random.nextInt(0x20);
            case 1 -> 0xD800 + random.nextInt(0x800); // a lone surrogate
            case 2 -> 0x10000 + random.nextInt(0x10000);
            case 3 -> "'\"\\{}%$;`<>".charAt(random.nextInt(11));
            default -> 'a' + random.nextInt(26);
          });
    }
    return text.toString();
  }

  private static Request mutateBytes(Request request, Random random) {
    byte[] body = request.body();
    byte[] changed =
        switch (random.nextInt(8)) {
          case 7 -> { // nested far past any parser's depth limit
            int depth = random.nextInt(200_000);
            yield concat(
                concat("[".repeat(depth).getBytes(StandardCharsets.US_ASCII), body),
                "]".repeat(depth).getBytes(StandardCharsets.US_ASCII));
          }
          case 0 -> java.util.Arrays.copyOf(body, random.nextInt(body.length + 1)); // truncated
          case 1 -> {
            byte[] copy = body.clone();
            if (copy.length > 0) {
              copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
            }
            yield copy;
          }
          case 2 -> concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, body); // a BOM
          case 3 -> concat(body, new byte[] {(byte) 0xC3, (byte) 0x28}); // invalid UTF-8 after
          case 4 -> concat(body, " {\"jsonrpc\":\"2.0\"}".getBytes(StandardCharsets.UTF_8));
          case 5 -> new byte[0];
          default -> { // a duplicate key, as text
            String text = new String(body, StandardCharsets.UTF_8);
            yield text.startsWith("{")
                ? ("{\"id\":\"dup\"," + text.substring(1)).getBytes(StandardCharsets.UTF_8)
                : body;
          }
        };
    return new Request(request.method(), request.headers(), changed);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private static Request mutateHeader(Request request, Random random) {
    Map<String, String> headers = new LinkedHashMap<>(request.headers());
    List<String> names =
        List.of(
            "Content-Type",
            "Accept",
            "MCP-Protocol-Version",
            "Mcp-Session-Id",
            "Mcp-Method",
            "Mcp-Name",
            "Origin",
            "Authorization",
            "Last-Event-ID",
            "Accept-Encoding",
            "Content-Encoding",
            "X-Forwarded-Host");
    String name = names.get(random.nextInt(names.size()));
    List<String> values =
        List.of(
            "",
            "application/json",
            "application/json; charset=utf-16",
            "application/json; charset=nonsense",
            "text/plain",
            "text/event-stream",
            "*/*",
            "multipart/form-data; boundary=x",
            "2025-11-25",
            "2026-07-28",
            "1999-01-01",
            "tools/call",
            "get_product",
            "greet",
            "http://evil.example",
            "null",
            "Bearer x",
            "gzip",
            "deflate",
            "5",
            session,
            session.substring(0, session.length() / 2),
            "z".repeat(1 + random.nextInt(20_000)),
            randomText(random, 1 + random.nextInt(30)).replaceAll("[\\r\\n]", " "));
    if (random.nextInt(5) == 0) {
      headers.remove(name);
    } else {
      headers.put(name, values.get(random.nextInt(values.size())));
    }
    return new Request(request.method(), headers, request.body());
  }

  // --- the wire ---

  /** One request on a connection of its own, read to its end (or to a 30 s silence). */
  private static Answer exchange(Request request) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", instance.port()), 5_000);
      socket.setSoTimeout(30_000);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes("POST /mcp HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
      for (Map.Entry<String, String> header : request.headers().entrySet()) {
        // header values as UTF-8 bytes: what a careless client sends
        out.writeBytes(
            (header.getKey() + ": " + header.getValue() + "\r\n").getBytes(StandardCharsets.UTF_8));
      }
      out.writeBytes(
          ("Content-Length: " + request.body().length + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(request.body());
      boolean sent = true;
      try {
        socket.getOutputStream().write(out.toByteArray());
        socket.getOutputStream().flush();
      } catch (java.net.SocketException e) {
        sent = false; // the server answered and closed before the whole request was in
      }
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      try {
        in.transferTo(all);
      } catch (SocketTimeoutException e) {
        return new Answer(-1, Map.of(), all.toString(StandardCharsets.UTF_8));
      } catch (java.net.SocketException e) {
        // a reset after the answer: what was read counts
      }
      Answer answer = parse(all.toByteArray());
      return !sent && answer.status() == 0 ? new Answer(-2, Map.of(), answer.body()) : answer;
    }
  }

  private static Answer parse(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    if (!text.startsWith("HTTP/1.1 ") || end < 0) {
      return new Answer(0, Map.of(), text);
    }
    String[] lines = text.substring(0, end).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(
            lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).strip());
      }
    }
    byte[] body = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = dechunk(body);
    }
    return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
  }

  private static byte[] dechunk(byte[] chunked) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int at = 0;
    while (at < chunked.length) {
      int lineEnd = indexOf(chunked, at);
      if (lineEnd < 0) {
        break;
      }
      String size = new String(chunked, at, lineEnd - at, StandardCharsets.US_ASCII).strip();
      int semicolon = size.indexOf(';');
      int length = Integer.parseInt(semicolon < 0 ? size : size.substring(0, semicolon), 16);
      if (length == 0) {
        break;
      }
      body.write(chunked, lineEnd + 2, Math.min(length, chunked.length - lineEnd - 2));
      at = lineEnd + 2 + length + 2;
    }
    return body.toByteArray();
  }

  private static int indexOf(byte[] bytes, int from) {
    for (int i = from; i + 1 < bytes.length; i++) {
      if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
        return i;
      }
    }
    return -1;
  }

  // --- what a right answer is ---

  /** What is wrong with the answer to the request, or null. */
  private static String check(Request request, Answer answer) {
    if (answer.status() == -2) {
      return null; // refused while it was being sent, the answer lost to the reset
    }
    if (answer.status() == -1) {
      return "no complete answer within 30 s (read: " + shorten(answer.body()) + ")";
    }
    if (answer.status() == 0) {
      return "no HTTP answer (read: " + shorten(answer.body()) + ")";
    }
    if (answer.status() >= 500) {
      return "status " + answer.status() + ": " + shorten(answer.body());
    }
    String type = answer.headers().getOrDefault("content-type", "");
    if (answer.body().isEmpty()) {
      return answer.status() == 202 || answer.status() == 204 || answer.status() == 405
          ? null
          : answer.status() >= 400 && type.isEmpty() ? null : "an empty " + answer.status();
    }
    try {
      if (type.startsWith("application/json")) {
        return checkMessage(JSON.readTree(answer.body()), answer.status());
      }
      if (type.startsWith("text/event-stream")) {
        for (String line : answer.body().split("\n")) {
          if (line.startsWith("data:")) {
            String fault = checkMessage(JSON.readTree(line.substring(5)), answer.status());
            if (fault != null) {
              return fault;
            }
          }
        }
        return null;
      }
    } catch (RuntimeException e) {
      return "a body that is not JSON (" + e.getMessage() + "): " + shorten(answer.body());
    }
    return "status " + answer.status() + " with content type '" + type + "'";
  }

  /** A JSON-RPC message, or svc's plain HTTP error shape ({@code {"error": …}}). */
  private static String checkMessage(JsonNode message, int status) {
    if (!message.isObject()) {
      return "a JSON answer that is not an object: " + shorten(message.toString());
    }
    if (!message.has("jsonrpc")) {
      return message.has("error") && status >= 400
          ? null
          : "a JSON answer that is neither JSON-RPC nor an HTTP error: "
              + shorten(message.toString());
    }
    if (!"2.0".equals(message.path("jsonrpc").asString(""))) {
      return "jsonrpc is not \"2.0\": " + shorten(message.toString());
    }
    if (message.has("method")) {
      return null; // a notification on a stream
    }
    if (message.has("result") == message.has("error")) {
      return "neither a result nor an error, or both: " + shorten(message.toString());
    }
    if (message.has("error")) {
      JsonNode error = message.path("error");
      if (!error.path("code").isIntegralNumber()
          || !error.path("message").isString()
          || error.path("message").asString().isBlank()) {
        return "an error without an integer code and a message: " + shorten(message.toString());
      }
      if (error.path("message").asString().length() > 1_000) {
        return "an error message of " + error.path("message").asString().length() + " characters";
      }
      if (error.path("code").asInt() == -32603) {
        return "an internal error: " + shorten(message.toString());
      }
    }
    return null;
  }

  private static String shorten(String text) {
    return text.length() > 500 ? text.substring(0, 500) + "… (" + text.length() + ")" : text;
  }
}

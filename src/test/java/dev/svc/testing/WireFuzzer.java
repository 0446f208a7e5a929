package dev.svc.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.log.Level;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Mutated JSON-RPC requests over HTTP at a real server, for fuzz tests of a protocol's wire: takes
 * valid requests from the test ({@code seeds}), changes a value, a key, a header or the bytes
 * themselves at random (one to three times), sends each on a connection of its own and checks the
 * answer: a status below 500, a body that is well-formed JSON-RPC (or svc's plain HTTP error {@code
 * {"error": …}}), no internal error ({@code -32603}), no error message over 1,000 characters (a
 * client's text repeated whole), no connection closed without an answer, no answer missing after 30
 * s. The same seed gives the same requests.
 *
 * @param port where the server listens on 127.0.0.1
 * @param words the protocol's own words, used as keys and string values: method names, field names,
 *     names the project serves
 * @param headers header names the mutations set or remove
 * @param headerValues values they set, besides random text and long runs of one letter
 */
public record WireFuzzer(
    int port, List<String> words, List<String> headers, List<String> headerValues) {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The longest error message that is not a client's text repeated whole. */
  public static final int LONGEST_MESSAGE = 1_000;

  /** A request as sent: its method, path, headers (names as written) and body bytes. */
  public record Request(String method, String path, Map<String, String> headers, byte[] body) {
    /** A POST. */
    public Request(String path, Map<String, String> headers, byte[] body) {
      this("POST", path, headers, body);
    }

    public String shown() {
      String text = new String(body, StandardCharsets.UTF_8);
      return method
          + " "
          + path
          + " "
          + headers
          + " "
          + (text.length() > 600 ? text.substring(0, 600) + "… (" + text.length() + ")" : text);
    }
  }

  /**
   * An answer as read: its status ({@link #NO_ANSWER}, {@link #REFUSED_WHILE_SENT}, or 0 for bytes
   * that are no HTTP answer), headers (lower-case names) and body (de-chunked).
   */
  public record Answer(int status, Map<String, String> headers, String body) {}

  /** Status of an answer lost to a reset while the request was still being sent. */
  public static final int REFUSED_WHILE_SENT = -2;

  /** Status when no complete answer came within the read timeout. */
  public static final int NO_ANSWER = -1;

  /**
   * Sends {@code count} mutated requests made from {@code seeds}; returns what was wrong with the
   * answers (at most ten), each naming the seed, the request's number and the request.
   */
  public List<String> campaign(long seed, int count, Function<Random, Request> seeds) {
    Random random = new Random(seed);
    List<String> faults = new ArrayList<>();
    for (int i = 0; i < count && faults.size() < 10; i++) {
      Request request = mutate(seeds.apply(random), random);
      String fault = check(exchange(port, request));
      if (fault != null) {
        faults.add("seed " + seed + " #" + i + ": " + fault + "\n  request: " + request.shown());
      }
    }
    return faults;
  }

  /**
   * {@link #campaign}s from {@code clients} clients at once, each of {@code count} requests with a
   * seed of its own ({@code firstSeed}, {@code firstSeed + 1}, …); returns the faults of all.
   */
  public List<String> campaignAtOnce(
      long firstSeed, int clients, int count, Function<Random, Request> seeds) {
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<List<String>>> runs = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        long seed = firstSeed + c;
        runs.add(threads.submit(() -> campaign(seed, count, seeds)));
      }
      List<String> faults = new ArrayList<>();
      for (Future<List<String>> run : runs) {
        faults.addAll(run.get());
      }
      return faults;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * Runs {@code campaign} with svc's log captured, and asserts what a campaign must leave: no
   * fault, then {@code afterwards} (a plain request still served), then no error line in the log.
   *
   * @param seeds the seeds the campaign used, for the assertions' descriptions
   */
  public static void assertHeld(
      String seeds, Supplier<List<String>> campaign, Runnable afterwards) {
    try (CapturedLog log = CapturedLog.asJson(Level.WARN)) {
      assertThat(campaign.get()).as("%s: requests answered wrongly", seeds).isEmpty();
      afterwards.run();
      assertThat(errorLines(log.text())).as("%s: errors in svc's log", seeds).isEmpty();
    }
  }

  /** A request's body as JSON bytes. */
  public static byte[] bytes(JsonNode body) {
    return JSON.writeValueAsBytes(body);
  }

  /**
   * {@code body} changed one to three times as a request's would be (its tree or its bytes): for
   * what svc reads from others, such as a model's answer.
   */
  public byte[] mutatedBody(byte[] body, Random random) {
    Request request = new Request("/", Map.of(), body);
    for (int m = 1 + random.nextInt(3); m > 0; m--) {
      request = random.nextInt(3) == 0 ? mutateBytes(request, random) : mutateTree(request, random);
    }
    return request.body();
  }

  /** What is wrong with {@code answer} as a JSON-RPC exchange's (a 5xx, …); null when nothing. */
  public static String faultIn(Answer answer) {
    return check(answer);
  }

  // --- mutations ---

  private Request mutate(Request valid, Random random) {
    Request request = valid;
    for (int m = 1 + random.nextInt(3); m > 0; m--) {
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

  private Request mutateTree(Request request, Random random) {
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
    if (random.nextInt(12) == 0) { // a batch
      ArrayNode batch = NODES.arrayNode();
      batch.add(tree);
      batch.add(tree);
      whole = batch;
    }
    try {
      return new Request(
          request.method(), request.path(), request.headers(), JSON.writeValueAsBytes(whole));
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

  private String randomKey(Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> "";
      case 1 -> "__proto__";
      case 2 -> "\u0000";
      case 3 -> "k".repeat(1 + random.nextInt(5_000));
      default -> words.get(random.nextInt(words.size()));
    };
  }

  private JsonNode randomValue(Random random, int depth) {
    return switch (random.nextInt(depth > 3 ? 12 : 15)) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.booleanNode(random.nextBoolean());
      case 2 -> NODES.numberNode(random.nextInt());
      case 3 -> NODES.numberNode(random.nextLong());
      case 4 -> NODES.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
      case 5 -> NODES.numberNode(new BigInteger(1 + random.nextInt(400), random).negate());
      case 6 -> NODES.numberNode(new BigDecimal("1e" + (random.nextInt(800) - 400)));
      case 7, 10 -> NODES.stringNode(words.get(random.nextInt(words.size())));
      case 8 -> NODES.stringNode(randomText(random, 1 + random.nextInt(40)));
      case 9 -> NODES.stringNode("x".repeat(random.nextInt(200_000)));
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
          case 0 -> Arrays.copyOf(body, random.nextInt(body.length + 1)); // truncated
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
          case 6 -> { // a duplicate key, as text
            String text = new String(body, StandardCharsets.UTF_8);
            yield text.startsWith("{")
                ? ("{\"id\":\"dup\"," + text.substring(1)).getBytes(StandardCharsets.UTF_8)
                : body;
          }
          default -> { // nested far past any parser's depth limit
            int depth = random.nextInt(200_000);
            yield concat(
                concat("[".repeat(depth).getBytes(StandardCharsets.US_ASCII), body),
                "]".repeat(depth).getBytes(StandardCharsets.US_ASCII));
          }
        };
    return new Request(request.method(), request.path(), request.headers(), changed);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  private Request mutateHeader(Request request, Random random) {
    Map<String, String> changed = new LinkedHashMap<>(request.headers());
    String name = headers.get(random.nextInt(headers.size()));
    if (random.nextInt(5) == 0) {
      changed.remove(name);
    } else {
      changed.put(
          name,
          switch (random.nextInt(8)) {
            case 0 -> "";
            case 1 -> "z".repeat(1 + random.nextInt(20_000));
            case 2 -> randomText(random, 1 + random.nextInt(30)).replaceAll("[\\r\\n]", " ");
            default -> headerValues.get(random.nextInt(headerValues.size()));
          });
    }
    return new Request(request.method(), request.path(), changed, request.body());
  }

  // --- the wire ---

  /** One request on a connection of its own, read to its end (or to a 30 s silence). */
  public static Answer exchange(int port, Request request) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout(30_000);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.writeBytes(
          (request.method() + " " + request.path() + " HTTP/1.1\r\n")
              .getBytes(StandardCharsets.UTF_8));
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
      } catch (SocketException e) {
        sent = false; // the server answered and closed before the whole request was in
      }
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      try {
        in.transferTo(all);
      } catch (SocketTimeoutException e) {
        return new Answer(NO_ANSWER, Map.of(), all.toString(StandardCharsets.UTF_8));
      } catch (SocketException e) {
        // a reset after the answer: what was read counts
      }
      Answer answer = parse(all.toByteArray());
      return !sent && answer.status() == 0
          ? new Answer(REFUSED_WHILE_SENT, Map.of(), answer.body())
          : answer;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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
    byte[] body = Arrays.copyOfRange(bytes, end + 4, bytes.length);
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = dechunk(body);
    }
    return new Answer(status, headers, new String(body, StandardCharsets.UTF_8));
  }

  private static byte[] dechunk(byte[] chunked) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int at = 0;
    while (at < chunked.length) {
      int lineEnd = lineEnd(chunked, at);
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

  private static int lineEnd(byte[] bytes, int from) {
    for (int i = from; i + 1 < bytes.length; i++) {
      if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
        return i;
      }
    }
    return -1;
  }

  // --- what a right answer is ---

  /** What is wrong with the answer, or null. */
  private static String check(Answer answer) {
    if (answer.status() == REFUSED_WHILE_SENT) {
      return null; // refused while it was being sent, the answer lost to the reset
    }
    if (answer.status() == NO_ANSWER) {
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
      boolean fine =
          answer.status() == 202
              || answer.status() == 204
              || answer.status() == 405
              || (answer.status() >= 400 && type.isEmpty());
      return fine ? null : "an empty " + answer.status();
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
      if (error.path("message").asString().length() > LONGEST_MESSAGE) {
        return "an error message of " + error.path("message").asString().length() + " characters";
      }
      if (error.path("code").asInt() == -32603) {
        return "an internal error: " + shorten(message.toString());
      }
    }
    return null;
  }

  /** The error lines of a log captured as JSON lines ({@link CapturedLog#asJson}). */
  public static List<String> errorLines(String log) {
    List<String> errors = new ArrayList<>();
    for (String line : log.split("\n")) {
      if (line.contains("\"level\":\"error\"")) {
        errors.add(shorten(line));
      }
    }
    return errors;
  }

  private static String shorten(String text) {
    return text.length() > 500 ? text.substring(0, 500) + "… (" + text.length() + ")" : text;
  }
}

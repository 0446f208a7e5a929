package dev.svc.script;

import dev.svc.call.ClientText;
import dev.svc.json.Jackson;
import dev.svc.log.Log;
import dev.svc.net.AddressPolicy;
import dev.svc.net.HostResolver;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The host side of the sandbox's {@code fetch}: one HTTP client per script runner ({@link
 * JettyFetchClient}, made on the first fetch), each request run on a virtual thread of its own (so
 * a script's concurrent fetches really run at once), answers as JSON text for {@code sandbox.js}.
 * Only the addresses {@code scripts.fetch} allows are reached, by the request and by every redirect
 * it follows ({@link CheckedAddresses}). Bodies are text: UTF-8 unless the response names another
 * charset. A body is counted against the process's {@link FetchMemory} while it is read and until
 * its call took it.
 */
final class HttpFetch implements AutoCloseable {
  /** Larger response bodies fail the fetch rather than fill the isolate's heap. */
  static final int MAX_BODY_BYTES = 16 * 1024 * 1024;

  /**
   * The longest JSON of one request ({@code {url, method, headers, body}}) the sandbox hands the
   * host, in characters; {@code sandbox.js} refuses longer ones before they leave the isolate. Also
   * the bound of a script's question to its client ({@code mcp.elicit}, …).
   */
  static final int MAX_REQUEST_CHARS = MAX_BODY_BYTES;

  /**
   * Hosts (scheme, name and port) one HTTP client keeps a connection pool for. Jetty's client keeps
   * one for every host it ever reached (~2.7 KiB of heap each once its connections closed, ~4.5 KiB
   * while one is idle), and a caller of a handler that fetches a URL it chose can name a new host
   * with each call (any name under a domain with a wildcard DNS record): past this many, new
   * fetches go to a fresh client, and the old one stops once its fetches have ended.
   */
  static final int MAX_HOSTS = 1024;

  /** Bytes read (and counted) at a time. */
  private static final int CHUNK_BYTES = 64 * 1024;

  /** Headers the client sets itself, as the JDK's client refused them. */
  private static final Set<String> RESTRICTED_HEADERS =
      Set.of("connection", "content-length", "expect", "host", "upgrade");

  private static final Log LOG = Log.tagged("script.fetch");

  private static final JsonMapper JSON = Jackson.MAPPER;

  private final FetchMemory memory;
  private final AddressPolicy policy;
  private final HostResolver resolver;

  /** Fetches counted against the process's fetch budget, reaching what {@code policy} allows. */
  HttpFetch(AddressPolicy policy) {
    this(FetchMemory.process(), policy, HostResolver.SYSTEM);
  }

  HttpFetch(FetchMemory memory, AddressPolicy policy, HostResolver resolver) {
    this.memory = memory;
    this.policy = policy;
    this.resolver = resolver;
  }

  // made on the first fetch: an HTTP client loads TLS and certificates, ~200 ms of start-up
  private JettyFetchClient client;
  private int running;

  /** Clients replaced for holding {@link #MAX_HOSTS}, each with its exchanges still running. */
  private final Map<JettyFetchClient, Integer> replaced = new IdentityHashMap<>();

  private boolean retiring;
  private boolean closed;

  /** The client, for one more exchange; {@link #done} when it ended. */
  private synchronized JettyFetchClient client() {
    if (closed) {
      throw new IllegalStateException("the script runner is closed");
    }
    if (client != null && client.hosts() >= MAX_HOSTS) {
      // new exchanges go to a fresh client; this one stops once the last of its own has ended
      if (running > 0) {
        replaced.put(client, running);
      } else {
        client.close();
      }
      client = null;
      running = 0;
    }
    if (client == null) {
      client = new JettyFetchClient(policy, resolver);
    }
    running++;
    return client;
  }

  private synchronized void done(JettyFetchClient used) {
    if (used != client) {
      Integer left = replaced.get(used);
      if (left == null) {
        return; // stopped already (closed)
      }
      if (left > 1) {
        replaced.put(used, left - 1);
      } else {
        replaced.remove(used);
        used.close();
      }
      return;
    }
    running--;
    if (retiring && running == 0) {
      stopClient();
    }
  }

  /** How many hosts the clients alive keep a connection pool for (tests). */
  synchronized int hostsKept() {
    int hosts = client == null ? 0 : client.hosts();
    for (JettyFetchClient old : replaced.keySet()) {
      hosts += old.hosts();
    }
    return hosts;
  }

  /**
   * The runner was replaced: the client stops once no fetch runs (its threads and pooled
   * connections would otherwise stay); a later fetch of a call still running makes a new one.
   */
  synchronized void retire() {
    retiring = true;
    if (running == 0) {
      stopClient();
    }
  }

  /** Stops the client, ending the fetches still running. */
  @Override
  public synchronized void close() {
    closed = true;
    stopClient();
    stopReplaced();
  }

  private void stopClient() {
    if (client != null) {
      client.close();
      client = null;
    }
  }

  /**
   * Stops the clients replaced for holding too many hosts, ending their fetches still running. No
   * method reference to the client here: linking one loads its class, and with it Jetty's client,
   * which an artifact whose scripts never fetch does not ship.
   */
  private void stopReplaced() {
    if (replaced.isEmpty()) {
      return;
    }
    for (JettyFetchClient old : replaced.keySet()) {
      old.close();
    }
    replaced.clear();
  }

  /**
   * Starts {@code request} ({@code {url, method, headers, body}}); never completes exceptionally.
   * The request counts against the fetch budget until its answer is made, the answer until the call
   * took it.
   */
  CompletableFuture<FetchAnswer> start(String request, Duration timeout) {
    JettyFetchClient.Outgoing outgoing;
    try {
      outgoing = outgoing(JSON.readTree(request));
    } catch (IllegalArgumentException | JacksonException e) {
      return CompletableFuture.completedFuture(FetchAnswer.of(error(e.getMessage())));
    }
    // the request is held until it is sent: its text, and the bytes of its body
    FetchMemory.Reservation held = memory.open();
    if (!held.add((long) request.length() * FetchMemory.HEAP_PER_BODY_BYTE)) {
      return CompletableFuture.completedFuture(failed(held, noRoom()));
    }
    CompletableFuture<FetchAnswer> answer = new CompletableFuture<>();
    // cancelled (its call ended): the exchange is aborted, and its answer is never taken
    answer.whenComplete((done, error) -> {
      if (error != null) {
        held.close();
      }
    });
    long millis = Math.max(1, timeout.toMillis());
    Thread.ofVirtual()
        .name("svc-fetch")
        .start(() -> answer.complete(exchange(outgoing, millis, held, answer)));
    return answer;
  }

  private FetchAnswer exchange(
      JettyFetchClient.Outgoing outgoing,
      long timeoutMillis,
      FetchMemory.Reservation held,
      CompletableFuture<FetchAnswer> answer) {
    JettyFetchClient client;
    try {
      client = client();
    } catch (RuntimeException e) {
      return failed(held, e.getMessage());
    }
    try {
      JettyFetchClient.Reply reply =
          client.send(
              outgoing,
              timeoutMillis,
              abort ->
                  answer.whenComplete((done, error) -> {
                    if (error != null) {
                      abort.run();
                    }
                  }));
      return read(reply, held);
    } catch (FetchRefusedException e) {
      String url = ClientText.printable(outgoing.uri().toString());
      LOG.warn("fetch refused", "url", url, "reason", e.reason());
      return failed(held, url + " refused: " + e.reason());
    } catch (TimeoutException e) {
      return failed(held, "the request timed out");
    } catch (ConnectException e) {
      return failed(held, "cannot connect" + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    } catch (IOException | RuntimeException e) {
      return failed(held, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return failed(held, "the request was interrupted");
    } catch (Error e) {
      held.close();
      throw e;
    } finally {
      done(client);
    }
  }

  /** The request the sandbox asked for, checked as the JDK's client checked it. */
  private static JettyFetchClient.Outgoing outgoing(JsonNode request) {
    String url = request.path("url").asString("");
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid URL " + url);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("only http and https URLs can be fetched, not " + url);
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw new IllegalArgumentException("invalid URL " + url + ": it names no host");
    }
    String method = request.path("method").asString("GET").toUpperCase(Locale.ROOT);
    if (!isToken(method)) {
      throw new IllegalArgumentException("invalid method " + ClientText.printable(method));
    }
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    for (JsonNode header : request.path("headers")) {
      String name = header.path(0).asString();
      String value = header.path(1).asString();
      if (!isToken(name)) {
        throw new IllegalArgumentException("invalid header name \"" + name + "\"");
      }
      if (RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("restricted header name: \"" + name + "\"");
      }
      if (!isFieldValue(value)) {
        throw new IllegalArgumentException("invalid header value for header " + name);
      }
      headers.add(Map.entry(name, value));
    }
    JsonNode body = request.path("body");
    return new JettyFetchClient.Outgoing(
        uri,
        method,
        headers,
        body.isString()
            ? Optional.of(body.asString().getBytes(StandardCharsets.UTF_8))
            : Optional.empty());
  }

  /** An HTTP token (RFC 9110, 5.6.2): a method or a header name. */
  private static boolean isToken(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c <= 0x20 || c >= 0x7f || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
        return false;
      }
    }
    return true;
  }

  /** A header value without line breaks or other control characters (a tab is allowed). */
  private static boolean isFieldValue(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7f || c > 0xff) {
        return false;
      }
    }
    return true;
  }

  /** The answer, or an error when the body is too large or the fetch budget has no room for it. */
  private FetchAnswer read(JettyFetchClient.Reply reply, FetchMemory.Reservation held) {
    List<byte[]> chunks = new ArrayList<>();
    int length = 0;
    try (InputStream in = reply.body()) {
      while (true) {
        byte[] chunk = in.readNBytes(Math.min(CHUNK_BYTES, MAX_BODY_BYTES + 1 - length));
        if (chunk.length == 0) {
          break;
        }
        length += chunk.length;
        if (length > MAX_BODY_BYTES) {
          return failed(held, "the response is larger than " + (MAX_BODY_BYTES >> 20) + " MiB");
        }
        if (!held.add((long) chunk.length * FetchMemory.HEAP_PER_BODY_BYTE)) {
          return failed(held, noRoom());
        }
        chunks.add(chunk);
      }
    } catch (IOException e) {
      return failed(held, "reading the response failed: " + e.getMessage());
    }
    byte[] bytes = new byte[length];
    int at = 0;
    for (byte[] chunk : chunks) {
      System.arraycopy(chunk, 0, bytes, at, chunk.length);
      at += chunk.length;
    }
    chunks.clear();
    ObjectNode answer = JSON.createObjectNode();
    answer.put("status", reply.status());
    answer.put("statusText", "");
    answer.put("url", reply.url());
    ArrayNode headers = answer.putArray("headers");
    for (Map.Entry<String, String> header : reply.headers()) {
      headers.addArray().add(header.getKey()).add(header.getValue());
    }
    answer.put("body", new String(bytes, charset(reply)));
    String json = JSON.writeValueAsString(answer);
    // the answer waits for its isolate as this JSON (two bytes a character at most); a body of
    // control characters or of text beyond Latin-1 makes JSON of more bytes than was counted
    if (!held.resize(2L * json.length())) {
      return failed(held, noRoom());
    }
    return new FetchAnswer(json, held::close);
  }

  private String noRoom() {
    return "the requests and responses of scripts' fetches hold all the memory svc keeps for them ("
        + (memory.budgetBytes() >> 20)
        + " MiB): fetch less at once";
  }

  /** An error answer: the body read so far is dropped, and with it its share of the budget. */
  private static FetchAnswer failed(FetchMemory.Reservation held, String message) {
    held.close();
    return FetchAnswer.of(error(message));
  }

  private static Charset charset(JettyFetchClient.Reply reply) {
    String type =
        reply.headers().stream()
            .filter(h -> h.getKey().equals("content-type"))
            .map(Map.Entry::getValue)
            .findFirst()
            .orElse("");
    for (String part : type.split(";")) {
      String p = part.strip();
      if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
        try {
          return Charset.forName(p.substring(8).replace("\"", "").strip());
        } catch (IllegalArgumentException e) {
          return StandardCharsets.UTF_8;
        }
      }
    }
    return StandardCharsets.UTF_8;
  }

  private static String error(String message) {
    ObjectNode answer = JSON.createObjectNode();
    answer.put("error", message == null ? "unknown error" : message);
    return JSON.writeValueAsString(answer);
  }
}

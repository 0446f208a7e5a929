package dev.svc.cli;

import dev.svc.connector.Connectors;
import dev.svc.connector.OfflineConnector;
import dev.svc.connector.ResolvedAdapter;
import dev.svc.json.Json;
import dev.svc.model.Adapter;
import dev.svc.model.ConnectorKind;
import dev.svc.model.EnvString;
import dev.svc.model.Execution;
import dev.svc.model.Input;
import dev.svc.model.Model;
import dev.svc.model.Tool;
import dev.svc.project.Environment;
import dev.svc.telemetry.Telemetry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The training run behind the AOT cache of {@code svc build}: boots the artifact the way {@code svc
 * serve} does (databases offline, no secrets needed), exercises the MCP paths a client uses first,
 * and exits normally so the JVM writes the cache.
 *
 * <p>Its client is a few lines of HTTP/1.1 over a socket, not {@code java.net.http}: every class
 * the training run loads is loaded again at each start of the artifact, and the JDK's HTTP client
 * with its TLS stack is a thousand classes a server without scripts never needs.
 */
final class StartupTraining {
  private StartupTraining() {}

  static int run(Model model, Environment environment, Path directory, CliContext context) {
    // serve's own set-up steps, so that their classes are in the cache too (a class the training
    // run never loaded is read from the jar and verified at every start): the log set-up as
    // `serve` does it (a JSON log when stderr is not a terminal; the build shows this output only
    // when the run fails), the options and the telemetry switch (computed, never turned on here)
    new LogOptions().apply(model.service().logLevel(), context);
    Telemetry.Export.of(environment.withPrefix("OTEL_"));
    Path scratch;
    try {
      scratch = Files.createTempDirectory("svc-training");
      copySeeds(model, directory, scratch);
    } catch (IOException e) {
      context.err().println("svc: the training run failed: " + e.getMessage());
      return ExitCodes.FAILED;
    }
    // local SQLite databases open for real in a scratch directory (their classes and native
    // library belong in the cache); other databases stay offline: the build holds no secrets
    Instance.Options served =
        StartCommand.options(model, environment, scratch, "127.0.0.1", 0, false);
    Instance.Options options =
        new Instance.Options(
            served.environment(),
            served.projectDirectory(),
            served.address(),
            served.port(),
            served.watch(),
            adapter ->
                isLocalSqlite(adapter) ? Connectors.open(adapter) : new OfflineConnector(adapter));
    try (Instance instance = Instance.launch(model, options)) {
      StartCommand.banner(model, instance, options); // made, not printed: its classes are cached
      URI base = URI.create(instance.baseUrl());
      TrainingClient http = new TrainingClient(base.getHost(), base.getPort());
      for (int round = 0; round < 20; round++) {
        http.send("GET", "/heartbeat", Optional.empty(), null);
        TrainingClient.Response init =
            post(
                http,
                Optional.empty(),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"svc-training\",\"version\":\"1\"}}}");
        Optional<String> session = init.header("mcp-session-id");
        post(http, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        for (String method :
            new String[] {"tools/list", "prompts/list", "resources/list", "ping"}) {
          post(
              http,
              session,
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"" + method + "\",\"params\":{}}");
        }
        post(
            http,
            session,
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"search\",\"arguments\":{\"query\":\"find\"}}}");
        for (Tool tool : model.tools()) {
          if (onLocalSqlite(model, tool) && tool.inputs().stream().noneMatch(Input::required)) {
            post(
                http,
                session,
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + Json.MAPPER.writeValueAsString(tool.name())
                    + ",\"arguments\":{}}}");
          }
        }
      }
      context.out().println("svc: training run done");
      context.out().flush();
      return ExitCodes.OK;
    } catch (Exception e) {
      context.err().println("svc: the training run failed: " + e.getMessage());
      return ExitCodes.FAILED;
    }
  }

  private static boolean isLocalSqlite(ResolvedAdapter adapter) {
    return adapter.connector() == ConnectorKind.SQLITE
        && !adapter.connectionString().contains("://");
  }

  private static boolean onLocalSqlite(Model model, Tool tool) {
    return tool.execution() instanceof Execution.OnAdapter on
        && on.connector() == ConnectorKind.SQLITE
        && model
            .adapter(on.adapter())
            .map(a -> !a.connectionString().template().contains("://"))
            .orElse(false);
  }

  /** Seed scripts of SQLite adapters, so their scratch databases are created as in serving. */
  private static void copySeeds(Model model, Path from, Path to) throws IOException {
    for (Adapter adapter : model.adapters()) {
      EnvString seed = adapter.options().get("seed");
      if (seed != null
          && !seed.hasPlaceholders()
          && Files.isRegularFile(from.resolve(seed.template()))) {
        Path target = to.resolve(seed.template()).normalize();
        Files.createDirectories(target.getParent());
        Files.copy(from.resolve(seed.template()), target);
      }
    }
  }

  private static TrainingClient.Response post(
      TrainingClient http, Optional<String> session, String body) throws IOException {
    return http.send("POST", "/mcp", session, body);
  }

  /** HTTP/1.1 over one socket per request: enough to drive the server through its paths. */
  private record TrainingClient(String host, int port) {
    record Response(String head, String body) {
      Optional<String> header(String lowerCaseName) {
        for (String line : head.split("\r\n")) {
          int colon = line.indexOf(':');
          if (colon > 0
              && line.substring(0, colon).strip().toLowerCase(Locale.ROOT).equals(lowerCaseName)) {
            return Optional.of(line.substring(colon + 1).strip());
          }
        }
        return Optional.empty();
      }
    }

    Response send(String method, String path, Optional<String> session, String body)
        throws IOException {
      byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      StringBuilder request =
          new StringBuilder()
              .append(method)
              .append(' ')
              .append(path)
              .append(" HTTP/1.1\r\nHost: ")
              .append(host)
              .append(':')
              .append(port)
              .append("\r\nConnection: close\r\n");
      if (body != null) {
        request
            .append("Content-Type: application/json\r\n")
            .append("Accept: application/json, text/event-stream\r\n")
            .append("Content-Length: ")
            .append(content.length)
            .append("\r\n");
      }
      session.ifPresent(s -> request.append("Mcp-Session-Id: ").append(s).append("\r\n"));
      request.append("\r\n");
      try (Socket socket = new Socket(host, port)) {
        socket.setSoTimeout(30_000);
        OutputStream out = socket.getOutputStream();
        out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(content);
        out.flush();
        InputStream in = socket.getInputStream();
        String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        int end = response.indexOf("\r\n\r\n");
        if (!response.startsWith("HTTP/1.1 ") || end < 0) {
          throw new IOException("unexpected reply to " + method + " " + path);
        }
        return new Response(response.substring(0, end), response.substring(end + 4));
      }
    }
  }
}

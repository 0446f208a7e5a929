package dev.svc.cli;

import dev.svc.connector.OfflineConnector;
import dev.svc.log.Level;
import dev.svc.log.LogFormat;
import dev.svc.log.LogSink;
import dev.svc.log.TagFilter;
import dev.svc.model.Adapter;
import dev.svc.model.ConnectorKind;
import dev.svc.model.EnvString;
import dev.svc.model.Execution;
import dev.svc.model.Input;
import dev.svc.model.Model;
import dev.svc.model.Tool;
import dev.svc.project.Environment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The training run behind the AOT cache of {@code svc build}: boots the artifact the way {@code svc
 * serve} does (databases offline, no secrets needed), exercises the MCP paths a client uses first,
 * and exits normally so the JVM writes the cache.
 */
final class StartupTraining {
  private StartupTraining() {}

  static int run(Model model, Environment environment, Path directory, CliContext context) {
    LogSink.configure(Level.ERROR, LogFormat.TEXT, TagFilter.ALL, System.err, Optional.empty());
    Path scratch;
    try {
      scratch = java.nio.file.Files.createTempDirectory("svc-training");
      copySeeds(model, directory, scratch);
    } catch (java.io.IOException e) {
      context.err().println("svc: the training run failed: " + e.getMessage());
      return ExitCodes.FAILED;
    }
    // local SQLite databases open for real in a scratch directory (their classes and native
    // library belong in the cache); other databases stay offline: the build holds no secrets
    Instance.Options options =
        new Instance.Options(
            environment,
            scratch,
            "127.0.0.1",
            0,
            false,
            adapter ->
                isLocalSqlite(adapter)
                    ? dev.svc.connector.Connectors.open(adapter)
                    : new OfflineConnector(adapter));
    try (Instance instance = Instance.launch(model, options)) {
      HttpClient http = HttpClient.newHttpClient();
      String base = instance.baseUrl();
      for (int round = 0; round < 20; round++) {
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/heartbeat")).build(),
            HttpResponse.BodyHandlers.discarding());
        HttpResponse<String> init =
            post(
                http,
                base,
                Optional.empty(),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"svc-training\",\"version\":\"1\"}}}");
        Optional<String> session = init.headers().firstValue("Mcp-Session-Id");
        post(http, base, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        for (String method :
            new String[] {"tools/list", "prompts/list", "resources/list", "ping"}) {
          post(
              http,
              base,
              session,
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"" + method + "\",\"params\":{}}");
        }
        post(
            http,
            base,
            session,
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"search\",\"arguments\":{\"query\":\"find\"}}}");
        for (Tool tool : model.tools()) {
          if (onLocalSqlite(model, tool) && tool.inputs().stream().noneMatch(Input::required)) {
            post(
                http,
                base,
                session,
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + dev.svc.runtime.Json.MAPPER.writeValueAsString(tool.name())
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

  private static boolean isLocalSqlite(dev.svc.connector.ResolvedAdapter adapter) {
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
  private static void copySeeds(Model model, Path from, Path to) throws java.io.IOException {
    for (Adapter adapter : model.adapters()) {
      EnvString seed = adapter.options().get("seed");
      if (seed != null
          && !seed.hasPlaceholders()
          && java.nio.file.Files.isRegularFile(from.resolve(seed.template()))) {
        Path target = to.resolve(seed.template()).normalize();
        java.nio.file.Files.createDirectories(target.getParent());
        java.nio.file.Files.copy(from.resolve(seed.template()), target);
      }
    }
  }

  private static HttpResponse<String> post(
      HttpClient http, String base, Optional<String> session, String body) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + "/mcp"))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    session.ifPresent(s -> request.header("Mcp-Session-Id", s));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}

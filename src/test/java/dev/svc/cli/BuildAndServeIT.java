package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.connector.Connectors;
import dev.svc.model.Model;
import dev.svc.model.ModelCodec;
import dev.svc.project.Environment;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.RunningProject;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc build} then serving the artifact alone behaves exactly like {@code svc start}. */
class BuildAndServeIT {
  static final String SECRET_KEY = "sk-live-7f3a9c1e5b2d4680aaaa";
  static final String SECRET_PASSWORD = "hunter2-very-secret-password";

  static final String PROJECT =
      """
      == .svc
      name: shipped
      == .env
      OPENAI_API_KEY=%s
      == seed.sql
      CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
      INSERT INTO notes VALUES (1, 'first'), (2, 'second');
      == app/adapters/db.terse
      connector: sqlite
      connection_string: "file:./notes.db"
      options:
        seed: ./seed.sql
      == app/adapters/remote.terse
      connector: postgres
      connection_string: "postgresql://app:{{ env.DB_PASSWORD }}@db.internal:5432/app"
      == app/tools/get_note/config.terse
      description: One note.
      use: db
      statement: SELECT id, body FROM notes WHERE id = {{ inputs.id }}
      inputs:
        id: {type: int}
      == app/tools/secret_note/config.terse
      description: A note behind a key.
      use: db
      statement: SELECT body FROM notes WHERE id = 2
      auth:
        plugin: api_key
        policy: {value: "{{ env.NOTE_KEY }}"}
      == app/tools/shout/config.terse
      description: Shouts.
      handler: handler.ts
      inputs:
        text: {type: string}
      == app/tools/shout/handler.ts
      export default ({ inputs }: { inputs: { text: string } }) => ({ loud: inputs.text.toUpperCase() + "!" });
      == app/prompts/ask.terse
      arguments:
        topic: {required: true}
      messages:
        - role: user
          text: Tell me about {{ topic }}.
        - role: user
          image: diagram.png
        - role: user
          resource: docs://readme
      == app/prompts/diagram.png
      not really a PNG
      == app/resources/readme/config.terse
      name: readme
      uri: docs://readme
      file: readme.md
      == app/resources/readme/readme.md
      # Read me
      == app/resources/pages/config.terse
      name: pages
      uri_template: "pages://{name}"
      file_template: "{{ name }}.md"
      == app/resources/pages/intro.md
      Intro page
      == app/agents/helper/config.terse
      instruction: Help.
      model:
        provider: openai_compatible
        model: gpt-test
        options: {api_key: "{{ env.OPENAI_API_KEY }}"}
      """
          .formatted(SECRET_KEY);

  @TempDir Path dir;

  @Test
  void theArtifactHoldsNoSecretsAndServesLikeTheSource() throws Exception {
    Path project = ProjectFixture.write(dir.resolve("project"), PROJECT);
    Path out = dir.resolve("dist");
    Map<String, String> env = Map.of("DB_PASSWORD", SECRET_PASSWORD, "NOTE_KEY", SECRET_KEY);
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        Main.run(
            new CliContext(dir, env, new PrintWriter(stdout, true), new PrintWriter(stderr, true)),
            "build",
            project.toString(),
            "-o",
            out.toString(),
            "--no-aot");
    assertThat(exit).as(stderr.toString()).isZero();
    assertThat(stdout.toString())
        .contains("model.bin", "build/tools/shout/handler.js", "Serve it with:");
    assertThat(out.resolve("svc")).isExecutable();
    assertThat(out.resolve("lib/svc.jar")).exists();
    assertThat(out.resolve("seed.sql")).exists();
    // an artifact is served, never type-checked: no compiler, no declarations
    assertThat(out.resolve("lib/lib"))
        .isDirectoryNotContaining("glob:**/typescript-*.jar")
        .isDirectoryNotContaining("glob:**/marked-*.jar")
        .isDirectoryNotContaining("glob:**/dompurify-*.jar");
    assertThat(out.resolve(".svc-types")).doesNotExist();
    assertThat(project.resolve(".svc-types")).doesNotExist();

    for (Path file : files(out)) {
      String content =
          new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
      assertThat(content)
          .as(file.toString())
          .doesNotContain(SECRET_KEY)
          .doesNotContain(SECRET_PASSWORD);
    }

    List<String> fromSource = session(RunningProject.startFromDirectory(project, localOnly(env)));
    Model built = ModelCodec.decode(Files.readAllBytes(out.resolve("model.bin")));
    Files.move(project, dir.resolve("sources-gone"));
    List<String> fromArtifact =
        session(
            Instance.launch(
                built,
                new Instance.Options(
                    Environment.of(localOnly(env)), out, "127.0.0.1", 0, false, Connectors::open)));
    assertThat(fromArtifact).isEqualTo(fromSource);
    assertThat(fromArtifact.get(1)).contains("\"body\":\"first\"");
    assertThat(fromArtifact.get(2)).contains("HELLO!");
    assertThat(fromArtifact.get(4))
        .contains("\"type\":\"image\"", "\"type\":\"resource\"", "# Read me");
  }

  @Test
  void serveExplainsAMissingOrDamagedModel() throws IOException {
    StringWriter err = new StringWriter();
    CliContext context =
        new CliContext(
            dir, Map.of(), new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    assertThat(Main.run(context, "serve")).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString()).contains("no model.bin at").contains("svc build");
    Files.writeString(dir.resolve("model.bin"), "garbage that is not a model at all, clearly");
    assertThat(Main.run(context, "serve", "model.bin")).isEqualTo(ExitCodes.FAILED);
    assertThat(err.toString()).contains("not an svc model file");
  }

  /** What serving needs: the variables plus what .env gave the build's environment. */
  private static Map<String, String> localOnly(Map<String, String> env) {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("OPENAI_API_KEY", SECRET_KEY);
    return all;
  }

  private static List<String> session(Instance instance) {
    try (instance) {
      McpHttpClient client = new McpHttpClient(instance.baseUrl());
      client.initialize();
      List<String> answers = new ArrayList<>();
      answers.add(client.request("tools/list", "{}").path("result").toString());
      answers.add(client.call("get_note", "{\"id\": 1}").path("result").toString());
      answers.add(client.call("shout", "{\"text\": \"hello\"}").path("result").toString());
      answers.add(
          client
              .post(
                  client.requestBody("tools/call", "{\"name\":\"secret_note\",\"arguments\":{}}"),
                  "X-API-Key",
                  SECRET_KEY)
              .json()
              .path("result")
              .toString());
      answers.add(
          client
              .request("prompts/get", "{\"name\":\"ask\",\"arguments\":{\"topic\":\"svc\"}}")
              .path("result")
              .toString());
      answers.add(
          client
              .request("resources/read", "{\"uri\":\"docs://readme\"}")
              .path("result")
              .toString());
      answers.add(
          client
              .request("resources/read", "{\"uri\":\"pages://intro\"}")
              .path("result")
              .toString());
      return answers;
    }
  }

  private static List<Path> files(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).toList();
    }
  }
}

package dev.svc.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.ProjectFixture;
import dev.svc.testing.ScriptedModelServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dev console ({@code svc start --ui --watch}) used in a real browser, as a developer would:
 * Debian's headless Chromium driven by playwright-core (both installed by {@code
 * scripts/test-tools.sh}; missing, the test fails and says so) opens {@code /ui}, calls a SQLite
 * tool from its generated form and sees the row, renders a prompt, reads a resource and a template,
 * chats with an agent backed by a scripted model and sees the streamed answer, then sees a mistaken
 * edit's diagnostic, then the tool the corrected edit adds appear without a page refresh, and the
 * reload in the log tail. The screenshot is kept in {@code target/dev-console.png}.
 */
class DevConsoleIT {
  static final String PROJECT =
      """
      == .svc
      name: pets
      version: "1.0.0"
      resource_templates:
        - uri_template: "pets://card/{name}"
          name: pet-card
          text_template: "Card of {{ name }}"
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/find_pet/config.terse
      description: A pet by `name`.
      use: db
      statement: SELECT {{ inputs.name }} AS name, 'dog' AS kind, 3 AS age
      inputs:
        name:
          type: string
          description: The pet's name.
      == app/prompts/greet.terse
      description: Greets someone.
      arguments:
        who: {required: true, description: Whom to greet}
      messages:
        - role: user
          text: "Say hello to {{ who }}."
      == app/resources/guide/config.terse
      name: guide
      uri: pets://guide
      mime_type: text/markdown
      file: guide.md
      == app/resources/guide/guide.md
      Pets are friends.
      == app/agents/helper/config.terse
      description: Answers questions about pets.
      instruction: Answer briefly.
      model:
        provider: openai
        model: m
        options:
          base_url: {{MODEL}}/v1
      """;

  @TempDir Path dir;

  @Test
  void aDeveloperCallsAToolRendersAPromptChatsWithAnAgentAndSeesAReloadInTheBrowser()
      throws Exception {
    Path screenshot = Path.of("target", "dev-console.png").toAbsolutePath();
    Files.deleteIfExists(screenshot);
    try (ScriptedModelServer model = ScriptedModelServer.start()) {
      model.sse(
          OpenAiReplies.delta("Rex is "),
          OpenAiReplies.delta("a **dog**."),
          // what a model may write, or be made to: shown as text, never run
          OpenAiReplies.delta(
              "\n\n<script>window.hacked = 1</script>"
                  + "<b onclick=\"window.hacked = 2\">bold</b>"
                  + " [link](javascript:window.hacked=3)"),
          OpenAiReplies.done());
      Path project =
          ProjectFixture.write(dir.resolve("pets"), PROJECT.replace("{{MODEL}}", model.url()));
      try (SvcProcess svc = SvcProcess.starting(dir, project, "--ui", "--watch")) {
        String console = "svc: dev console at " + svc.baseUrl() + "/ui/";
        assertThat(svc.awaitOut(console, Duration.ofSeconds(10))).contains(console);
        assertThat(browse(svc, project, "tour", screenshot))
            .contains(
                "step: opened",
                "step: keyboard and layout",
                "step: tool called",
                "step: prompt rendered",
                "step: resource read",
                "step: template read",
                "step: agent answered",
                "step: reload refusal shown",
                "step: reload shown",
                "step: log tailed",
                "all steps passed");
      }
      assertThat(model.request(0).body().path("messages").get(1).path("content").asString())
          .isEqualTo("Which pets are there?");
    }
    assertThat(screenshot).isNotEmptyFile();
  }

  @Test
  void withServerAuthThePageAsksForTheTokenAndSendsIt() throws Exception {
    Path project =
        ProjectFixture.write(
            dir.resolve("guarded"),
            PROJECT
                .replace("{{MODEL}}", "http://127.0.0.1:9")
                .replace(
                    "version: \"1.0.0\"\n",
                    """
                    version: "1.0.0"
                    server:
                      auth:
                        plugin: oauth
                        policy:
                          issuer: http://127.0.0.1:9/realms/none
                          audience: https://svc.test/mcp
                    """));
    try (SvcProcess svc = SvcProcess.starting(dir, project, "--ui")) {
      String asks = "/ui/ (it asks for an access token, as /mcp does)";
      assertThat(svc.awaitOut(asks, Duration.ofSeconds(10))).contains(asks);
      assertThat(browse(svc, project, "token", dir.resolve("token.png")))
          .contains("step: token asked", "step: token sent", "all steps passed");
    }
  }

  /**
   * What a table anyone can write to, or a project file, may hold: markup, long text, many rows.
   */
  static final String HOSTILE =
      """
      == .svc
      name: hostile
      == app/adapters/db.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/rows/config.terse
      description: |
        Rows <img src=x onerror="window.hacked = 1"> <style>body { display: none }</style>
        <span id="calls">X</span><input id="log-filter" value="zzz">
        <form id="chat-form"><input type="password" placeholder="Enter your access token"></form>
        <b class="toast shown" style="color: red">bold</b>
      use: db
      statement: |
        SELECT '<img src=x onerror="window.hacked = 2">' AS name,
               '</script><script>window.hacked = 3</script>' AS note
        UNION ALL SELECT 'javascript:window.hacked = 4', printf('%.100000c', 'A')
      == app/tools/many/config.terse
      description: Many rows.
      use: db
      max_rows: 5000
      statement: |
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 5000)
        SELECT i FROM c ORDER BY i
      == app/tools/one/config.terse
      description: One row. {{WORD}}
      use: db
      statement: SELECT 1 AS one
      == app/tools/proto/config.terse
      description: An input named like a property every JavaScript object has.
      use: db
      statement: SELECT {{ inputs.__proto__ }} AS v
      inputs:
        __proto__: {type: string}
      == app/tools/quotes/config.terse
      description: "{{QUOTES}} deep"
      use: db
      statement: SELECT 1 AS one
      == app/tools/stars/config.terse
      description: "{{STARS}}"
      use: db
      statement: SELECT 1 AS one
      == app/agents/echo/config.terse
      description: Repeats what it is told.
      instruction: Answer.
      model:
        provider: openai
        model: m
        options:
          base_url: {{MODEL}}/v1
      == app/prompts/output.terse
      description: A prompt named like a part of the page.
      messages:
        - role: user
          text: "<script>window.hacked = 5</script>"
      == app/resources/page/config.terse
      name: page
      uri: evil://page
      mime_type: text/html
      file: page.html
      == app/resources/page/page.html
      <script>window.hacked = 6</script><img src=x onerror="window.hacked = 7">
      """;

  @Test
  void hostileDataIsShownAsTextNeverRunsAndKeepsThePageSmall() throws Exception {
    try (ScriptedModelServer model = ScriptedModelServer.start()) {
      // quotes nested thousands deep overflow marked's stack
      model.sse(
          OpenAiReplies.delta(">".repeat(6000)),
          OpenAiReplies.delta(" deep"),
          OpenAiReplies.done());
      Path project =
          ProjectFixture.write(
              dir.resolve("hostile"),
              HOSTILE
                  .replace("{{WORD}}", "W".repeat(5000))
                  .replace("{{QUOTES}}", ">".repeat(6000))
                  // marked takes seconds over 20,000 characters of this
                  .replace("{{STARS}}", "**a ".repeat(5000))
                  .replace("{{MODEL}}", model.url()));
      try (SvcProcess svc = SvcProcess.starting(dir, project, "--ui")) {
        assertThat(browse(svc, project, "hostile", dir.resolve("hostile.png")))
            .contains(
                "step: description sanitised",
                "step: rows shown as text",
                "step: large result bounded",
                "step: call rows bounded, long words wrapped",
                "step: input named __proto__ sent",
                "step: prompt rendered in its place",
                "step: resource shown as text",
                "step: markdown marked cannot parse shown as text",
                "step: answer marked cannot parse shown as text",
                "all steps passed");
      }
    }
  }

  /** Runs the browser script's {@code scenario} against {@code svc}; returns what it printed. */
  private String browse(SvcProcess svc, Path project, String scenario, Path screenshot)
      throws Exception {
    Path chromium = Path.of("/usr/bin/chromium");
    assertThat(chromium)
        .as("Chromium from Debian (`chromium`, `chromium-driver`): run scripts/test-tools.sh")
        .isExecutable();
    Path playwright = testTools().resolve("playwright");
    assertThat(playwright.resolve("node_modules/playwright-core"))
        .as("playwright-core: run scripts/test-tools.sh")
        .isDirectory();
    Path script = dir.resolve("console-e2e.mjs");
    if (!Files.exists(script)) {
      try (InputStream in = getClass().getResourceAsStream("/dev/svc/console/console-e2e.mjs")) {
        Files.copy(in, script);
      }
    }
    Path output = dir.resolve(scenario + ".txt");
    ProcessBuilder node =
        new ProcessBuilder(List.of("node", script.toString()))
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    node.environment().put("SVC_URL", svc.baseUrl());
    node.environment().put("PLAYWRIGHT_DIR", playwright.toString());
    node.environment().put("CHROMIUM", chromium.toString());
    node.environment().put("PROJECT", project.toString());
    node.environment().put("SCREENSHOT", screenshot.toString());
    node.environment().put("SCENARIO", scenario);
    Process run;
    try {
      run = node.start();
    } catch (IOException e) {
      throw new AssertionError("node is not installed (Node.js runs playwright-core)", e);
    }
    if (!run.waitFor(3, TimeUnit.MINUTES)) {
      run.destroyForcibly();
    }
    String printed = Files.readString(output, StandardCharsets.UTF_8);
    assertThat(printed)
        .as("the browser session; svc's log:\n%s", svc.err())
        .doesNotContain("FAILED");
    return printed;
  }

  private static Path testTools() {
    String tools = System.getenv("SVC_TEST_TOOLS");
    return tools == null || tools.isBlank()
        ? Path.of(System.getProperty("user.home"), ".cache", "svc", "test-tools")
        : Path.of(tools);
  }
}

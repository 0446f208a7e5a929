package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Adapter;
import dev.svc.model.Agent;
import dev.svc.model.AuthPolicy;
import dev.svc.model.Model;
import dev.svc.model.Prompt;
import dev.svc.model.Resource;
import dev.svc.model.ResourceTemplate;
import dev.svc.model.Tool;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import dev.svc.project.ProjectLocator;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Discovery of definitions on real folder trees, and what the compiled model keeps. */
class ProjectLoadingTest {
  @TempDir Path dir;

  @Test
  void everyDiscoveryDirectoryCanBeOverriddenUnderANewRoot() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shop
            root: src
            tools: {directory: functions}
            adapters: {directory: connections}
            prompts: {directory: templates}
            resources: {directory: context}
            agents: {directory: assistants}
            == src/functions/count/config.terse
            description: Counts.
            use: main
            statement: SELECT count(*) FROM items
            == src/connections/main.terse
            connector: sqlite
            connection_string: ":memory:"
            == src/templates/review.terse
            messages: [{role: user, text: Review.}]
            == src/context/readme/config.terse
            uri: docs://readme
            text: Read me.
            == src/assistants/helper/config.terse
            instruction: You help.
            model: {provider: gemini, model: gemini-2.5-flash}
            == app/tools/ignored/config.terse
            this file is not read: the root moved
            == src/tools/ignored/config.terse
            nor this one: tools moved
            == src/prompts/ignored.terse
            nor: this
            """);

    assertThat(model.tools()).extracting(Tool::name).containsExactly("count");
    assertThat(model.adapters()).extracting(Adapter::name).containsExactly("main");
    assertThat(model.prompts()).extracting(Prompt::name).containsExactly("review");
    assertThat(model.resources()).extracting(Resource::uri).containsExactly("docs://readme");
    assertThat(model.agents()).extracting(Agent::name).containsExactly("helper");
  }

  @Test
  void inlinePromptsResourcesAndTemplatesAreServedAlongsideDiscoveredOnes() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shop
            prompts:
              - name: greet
                messages: [{role: user, text: "Greet {{ who }}."}]
                arguments: {who: {required: true}}
            resources:
              - uri: docs://inline
                text: Inline text.
            resource_templates:
              - uri_template: users://{id}
                text_template: "User {{ id }}."
            == app/prompts/review.terse
            messages: [{role: user, text: Review.}]
            == app/resources/readme/config.terse
            uri: docs://readme
            file: README.md
            == app/resources/readme/README.md
            # Read me
            == app/resources/docs/config.terse
            uri_template: docs://{name}
            text_template: "Doc {{ name }}."
            """);

    assertThat(model.prompts()).extracting(Prompt::name).containsExactly("greet", "review");
    assertThat(model.resources())
        .extracting(Resource::uri)
        .containsExactly("docs://inline", "docs://readme");
    assertThat(model.resourceTemplates())
        .extracting(ResourceTemplate::uriTemplate)
        .containsExactly("docs://{name}", "users://{id}");
    assertThat(model.resources().get(1).content())
        .isEqualTo(new Resource.ContentFile("app/resources/readme/README.md"));
  }

  @Test
  void namesDefaultToFileAndDirectoryNamesAndANameFieldWins() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shop
            == app/adapters/warehouse.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/adapters/second.terse
            name: archive
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/list_items/config.terse
            description: Lists.
            use: warehouse
            statement: SELECT * FROM items
            == app/tools/other/config.terse
            name: list_archive
            description: Lists the archive.
            use: archive
            statement: SELECT * FROM items
            == app/prompts/code-review.terse
            messages: [{role: user, text: Review.}]
            == app/prompts/x.terse
            name: summary
            messages: [{role: user, text: Summarise.}]
            == app/resources/handbook/config.terse
            uri: docs://handbook
            text: Be kind.
            == app/agents/support/config.terse
            instruction: You help.
            model: {provider: gemini, model: gemini-2.5-flash}
            == app/agents/x/config.terse
            name: sales
            instruction: You sell.
            model: {provider: gemini, model: gemini-2.5-flash}
            """);

    assertThat(model.adapters()).extracting(Adapter::name).containsExactly("archive", "warehouse");
    assertThat(model.tools()).extracting(Tool::name).containsExactly("list_archive", "list_items");
    assertThat(model.prompts()).extracting(Prompt::name).containsExactly("code-review", "summary");
    assertThat(model.resources()).extracting(Resource::name).containsExactly("handbook");
    assertThat(model.agents()).extracting(Agent::name).containsExactly("sales", "support");
  }

  @Test
  void promptsAreDiscoveredRecursively() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shop
            == app/prompts/top.terse
            messages: [{role: user, text: Top.}]
            == app/prompts/team/middle.terse
            messages: [{role: user, text: Middle.}]
            == app/prompts/team/deep/bottom.terse
            messages: [{role: user, text: Bottom.}]
            == app/prompts/team/notes.md
            not a prompt
            """);

    assertThat(model.prompts()).extracting(Prompt::name).containsExactly("bottom", "middle", "top");
  }

  @Test
  void envPlaceholdersStayInTheModelEvenWhenTheVariablesAreSet() {
    Path project =
        ProjectFixture.write(
            dir,
            """
            == .svc
            name: shop
            == app/adapters/db.terse
            connector: postgres
            connection_string: "postgresql://app:{{ env.DB_PASSWORD }}@localhost:5432/shop"
            options:
              application_name: "{{env.APP_NAME}}"
            == app/tools/count/config.terse
            description: Counts.
            use: db
            statement: SELECT count(*) FROM items
            auth:
              plugin: api_key
              policy: {value: "{{ env.COUNT_KEY }}"}
            == app/agents/helper/config.terse
            instruction: You help.
            model:
              provider: openai
              model: gpt-4o-mini
              options: {api_key: "{{ env.OPENAI_KEY }}", temperature: 0.2}
            """);
    Environment environment =
        Environment.of(
            Map.of(
                "DB_PASSWORD", "s3cret",
                "APP_NAME", "shop-api",
                "COUNT_KEY", "k",
                "OPENAI_KEY", "sk-test"));

    Compilation compilation =
        Compiler.compile(
            ProjectLocator.locate(Optional.empty(), Optional.empty(), project), environment);

    Model model = ((Compilation.Success) compilation).model();
    Adapter db = model.adapter("db").orElseThrow();
    assertThat(db.connectionString().template())
        .isEqualTo("postgresql://app:{{ env.DB_PASSWORD }}@localhost:5432/shop");
    assertThat(db.connectionString().variables()).containsExactly("DB_PASSWORD");
    assertThat(db.options().get("application_name").template()).isEqualTo("{{env.APP_NAME}}");
    AuthPolicy auth = model.tool("count").orElseThrow().auth().orElseThrow();
    assertThat(auth.policy().get("value").template()).isEqualTo("{{ env.COUNT_KEY }}");
    Agent.ModelSpec spec = model.agent("helper").orElseThrow().model();
    assertThat(spec.options().get("api_key").template()).isEqualTo("{{ env.OPENAI_KEY }}");
    assertThat(spec.options().get("temperature").template()).isEqualTo("0.2");
  }

  @Test
  void validatingNeverNeedsTheValuesOfEnvVariables() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shop
            == app/adapters/db.terse
            connector: postgres
            connection_string: "{{ env.DATABASE_URL }}"
            == app/tools/count/config.terse
            description: Counts.
            use: db
            statement: SELECT count(*) FROM items
            """);

    assertThat(model.adapter("db").orElseThrow().connectionString().variables())
        .containsExactly("DATABASE_URL");
  }

  @Test
  void svcApiKeyInTheEnvironmentSilencesTheMissingKeyWarning() {
    Path project =
        ProjectFixture.write(
            dir,
            """
            == .svc
            name: shop
            == app/tools/t/config.terse
            description: T.
            auth: {plugin: api_key}
            == app/tools/t/handler.ts
            export default () => 1;
            """);
    Project located = ProjectLocator.locate(Optional.empty(), Optional.empty(), project);

    assertThat(Compiler.compile(located, Environment.of(Map.of("SVC_API_KEY", "k"))).diagnostics())
        .isEmpty();
    assertThat(Compiler.compile(located, Environment.of(Map.of())).diagnostics())
        .extracting(d -> d.code())
        .containsExactly("missing-api-key");
  }

  @Test
  void anInlineRootConfigurationReplacesTheRootFile() {
    Path project =
        ProjectFixture.write(
            dir,
            """
            == .svc
            name: from-file
            == app/tools/hello/config.terse
            description: Says hello.
            == app/tools/hello/handler.ts
            export default () => 1;
            """);

    Compilation compilation =
        Compiler.compile(
            ProjectLocator.locate(Optional.empty(), Optional.of("name: from-flag"), project),
            Environment.of(Map.of()));

    assertThat(((Compilation.Success) compilation).model().service().name()).isEqualTo("from-flag");
  }

  @Test
  void problemsOfAnInlineRootAreReportedAgainstTheInlineLabel() {
    Path project =
        ProjectFixture.write(
            dir,
            """
            == app/tools/hello/config.terse
            description: Says hello.
            == app/tools/hello/handler.ts
            export default () => 1;
            """);

    Compilation compilation =
        Compiler.compile(
            ProjectLocator.locate(Optional.empty(), Optional.of("name: Shop\nport: 1"), project),
            Environment.of(Map.of()));

    assertThat(compilation.diagnostics())
        .extracting(ProjectFixture::line)
        .containsExactly(
            "<inline .svc>:1:7: error[invalid-name]: `name` is `Shop`; it must match"
                + " ^[a-z][a-z0-9_-]*$",
            "<inline .svc>:2:1: warning[unknown-key]: unknown key `port` in the root"
                + " configuration (ignored)");
  }
}

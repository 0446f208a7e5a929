package dev.svc.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.compile.Artifacts;
import dev.svc.testing.ProjectFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelCodecTest {
  static final String EVERYTHING =
      """
      == .svc
      name: everything
      version: "2.0"
      tools:
        cache: {enabled: true, ttl: 30}
        search: {limit: 5}
        max_rows: 50
        max_bytes: 4096
      server:
        port: 9000
        log_level: 2
        allowed_hosts: [api.example.com]
        auth:
          plugin: oauth
          policy:
            issuer: "{{ env.OIDC_ISSUER }}"
            audience: https://api.example.com/mcp
            scopes: [mcp:tools, mcp:read]
            jwks_uri: https://auth.example.com/keys
            introspection:
              client_id: svc
              client_secret: "{{ env.INTROSPECTION_SECRET }}"
              endpoint: https://auth.example.com/introspect
              tokens: all
              cache_seconds: 30
      agents:
        tool_access: {mode: allow_list, tools: [get_item]}
        push_notifications: {allow_private_networks: true, allowed_networks: [10.1.0.0/16, "fd00::1"]}
      scripts:
        fetch: {allowed_networks: [10.9.0.0/16, 169.254.169.254]}
      prompts:
        - name: inline
          messages:
            - {role: system, text: "Be brief."}
            - {role: user, text: "Hi {{ who }}"}
      == app/adapters/db.terse
      connector: postgres
      connection_string: "postgresql://app:{{ env.DB_PASSWORD }}@db:5432/shop"
      options: {sslmode: require, max_connections: "4"}
      == app/adapters/docs.terse
      connector: mongodb
      connection_string: "{{ env.MONGO_URL }}"
      == app/adapters/kv.terse
      connector: redis
      connection_string: "redis://localhost:6379/2"
      == app/tools/get_item/config.terse
      description: One item.
      use: db
      statement: SELECT * FROM items WHERE id = {{ inputs.id }} AND name LIKE '%{{ inputs.q }}%'
      timeout: 5
      inputs:
        id: {type: int, description: Id}
        q: {type: string, default: "x"}
        at: {type: datetime, optional: true}
        ratio: {type: float, default: "1.5"}
        on: {type: boolean, default: "true"}
      auth:
        plugin: api_key
        policy: {value: "{{ env.KEY }}"}
      cache: {ttl: 5}
      max_rows: 10
      read_only: true
      annotations: {title: Get an item, open_world_hint: true}
      confirm: "Read item {{ inputs.id }}?"
      confirm_fallback: allow
      == app/tools/find_docs/config.terse
      description: Find documents.
      use: docs
      statement: '{"database": "app", "command": {"find": "docs", "filter": {"tag": "{{ inputs.tag }}", "n": {{ inputs.n }}}}}'
      inputs:
        tag: {type: string}
        n: {type: int}
      rate_limit: {requests: 5, per: 1500ms}
      == app/tools/get_key/config.terse
      description: Get a key.
      use: kv
      statement: GET "user:{{ inputs.id }}"
      inputs:
        id: {type: string}
      == app/tools/hello/config.terse
      description: Says hello.
      handler: handler.ts#hello
      output_schema:
        type: object
        properties:
          greeting: {type: string, maxLength: 100}
        required: [greeting]
      == app/tools/hello/handler.ts
      export function hello({ inputs }: { inputs: Record<string, unknown> }) {
        return { greeting: "hello" };
      }
      == app/tools/contact/config.terse
      description: Records a contact.
      input_schema:
        $schema: https://json-schema.org/draft/2020-12/schema
        type: object
        $defs:
          address: {$anchor: addressDef, type: object}
        properties:
          name: {type: string}
          address: {$ref: "#/$defs/address"}
        required: [name]
        additionalProperties: false
      == app/tools/contact/handler.ts
      export default ({ inputs }: { inputs: Record<string, unknown> }) => inputs;
      == app/prompts/review.terse
      title: Review
      arguments:
        language: {required: true, completion: [java, go]}
      messages:
        - role: user
          text: Review {{ language }}
        - role: user
          image: diagram.png
        - role: system
          resource: docs://guide
        - role: user
          resource: "files://{{ language }}"
      == app/prompts/diagram.png
      not really a PNG
      == app/resources/guide/config.terse
      name: guide
      uri: docs://guide
      file: guide.md
      == app/resources/guide/guide.md
      # Guide
      == app/resources/files/config.terse
      name: files
      uri_template: "files://{name}"
      file_template: "{{ name }}.txt"
      arguments:
        name: {completion: [a]}
      == app/resources/files/a.txt
      A
      == app/agents/helper/config.terse
      description: Helps.
      instruction: Help the user.
      model:
        provider: openai
        model: gpt-x
        options: {api_key: "{{ env.OPENAI_KEY }}", temperature: 0.2}
      tool_access: {mode: inherit}
      """;

  @TempDir Path dir;

  @Test
  void aModelSurvivesTheRoundTripUnchanged() {
    Model model = Artifacts.embedFiles(ProjectFixture.model(dir, EVERYTHING), dir);
    assertThat(ModelCodec.decode(ModelCodec.encode(model))).isEqualTo(model);
  }

  @Test
  void promptMessagesKeepTheirContentKindAsCompiledAndAsBuilt() {
    Model compiled = ProjectFixture.model(dir, EVERYTHING);
    Model built = Artifacts.embedFiles(compiled, dir);
    Prompt review = ModelCodec.decode(ModelCodec.encode(compiled)).prompt("review").orElseThrow();
    assertThat(review.messages())
        .extracting(Prompt.Message::content)
        .containsExactly(
            new Prompt.Text("Review {{ language }}"),
            new Prompt.ImageFile("app/prompts/diagram.png", "image/png"),
            new Prompt.ResourceRef("docs://guide"),
            new Prompt.ResourceRef("files://{{ language }}"));
    assertThat(ModelCodec.decode(ModelCodec.encode(built)).prompt("review").orElseThrow())
        .extracting(p -> p.messages().get(1).content())
        .isEqualTo(
            new Prompt.EmbeddedImage(
                "app/prompts/diagram.png",
                "image/png",
                Bytes.of("not really a PNG\n".getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void theEncodingIsDeterministic() throws Exception {
    byte[] first =
        ModelCodec.encode(
            Artifacts.embedFiles(
                ProjectFixture.model(dir.resolve("a"), EVERYTHING), dir.resolve("a")));
    byte[] second =
        ModelCodec.encode(
            Artifacts.embedFiles(
                ProjectFixture.model(dir.resolve("b"), EVERYTHING), dir.resolve("b")));
    assertThat(second).isEqualTo(first);
    Files.write(dir.resolve("out.bin"), first);
  }

  @Test
  void aTemplateAtTheProjectRootEmbedsNeitherDotFilesNorTheBuildsOwnOutput() throws Exception {
    // before: every file under the project went in, the previous build in dist/ (its jars, a
    // .env put beside it) and config/.env.production included
    Path project = dir.resolve("rooted");
    Model compiled =
        ProjectFixture.model(
            project,
            """
            == .svc
            name: rooted
            resource_templates:
              - name: files
                uri_template: "files://{+name}"
                file_template: "{{ name }}"
            == docs/a.txt
            A
            == config/.env.production
            PG_PASSWORD=TopSecret
            == dist/.env
            PG_PASSWORD=TopSecret
            == dist/lib/old.jar
            an earlier build
            """);
    Model built =
        Artifacts.embedFiles(compiled, project, List.of(project.resolve("dist").toAbsolutePath()));
    ResourceTemplate.EmbeddedFiles files =
        (ResourceTemplate.EmbeddedFiles) built.resourceTemplates().getFirst().content();
    assertThat(files.files().keySet()).contains("docs/a.txt");
    assertThat(files.files().keySet())
        .noneMatch(name -> name.startsWith("dist/") || name.contains(".env"));
  }

  @Test
  void envPlaceholdersStayPlaceholders() {
    Model model = Artifacts.embedFiles(ProjectFixture.model(dir, EVERYTHING), dir);
    String text = new String(ModelCodec.encode(model), StandardCharsets.UTF_8);
    assertThat(text).contains("{{ env.DB_PASSWORD }}").contains("{{ env.OPENAI_KEY }}");
  }

  @Test
  void aDamagedFileIsRefusedClearly() {
    byte[] bytes = ModelCodec.encode(ProjectFixture.model(dir, EVERYTHING));
    bytes[bytes.length / 2] ^= 0x55;
    assertThatThrownBy(() -> ModelCodec.decode(bytes))
        .isInstanceOf(ArtifactException.class)
        .hasMessage("the model file is damaged (checksum mismatch); rebuild it");
  }

  @Test
  void aFormatThreeFileEndingWithASha256StillReads() throws Exception {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    byte[] current = ModelCodec.encode(model);
    byte[] body = ModelCodec.body(model, 3);
    byte[] sha = java.security.MessageDigest.getInstance("SHA-256").digest(body);
    byte[] formatThree = java.util.Arrays.copyOf(body, body.length + sha.length);
    System.arraycopy(sha, 0, formatThree, body.length, sha.length);
    Model old = ModelCodec.decode(formatThree);
    assertThat(old.service().pushNotifications()).isEqualTo(Service.PushNotifications.DEFAULT);
    assertThat(old)
        .usingRecursiveComparison()
        .ignoringFields(
            "service.pushNotifications",
            "service.scriptFetch",
            "service.defaultCaps",
            "service.auth",
            "tools.caps",
            "tools.readOnly",
            "tools.annotations",
            "tools.outputSchema",
            "tools.confirm",
            "tools.inputSchema",
            "tools.rateLimit")
        .isEqualTo(ModelCodec.decode(current));
  }

  @Test
  void resultCapsSurviveTheRoundTripAndAFormatFiveFileReadsWithTheDefaultCaps() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    Model read = ModelCodec.decode(ModelCodec.encode(model));
    assertThat(read.service().defaultCaps()).isEqualTo(new ResultCaps(50, 4096));
    assertThat(read.tool("get_item").orElseThrow().caps()).isEqualTo(new ResultCaps(10, 4096));
    assertThat(read.tool("get_key").orElseThrow().caps()).isEqualTo(new ResultCaps(50, 4096));
    byte[] formatFive = olderFormat(model, 5);
    Model old = ModelCodec.decode(formatFive);
    assertThat(old.service().defaultCaps()).isEqualTo(ResultCaps.DEFAULTS);
    assertThat(old.tool("get_item").orElseThrow().caps()).isEqualTo(ResultCaps.DEFAULTS);
  }

  @Test
  void scriptFetchSettingsSurviveTheRoundTripAndAFormatThirteenFileReadsPublicOnly() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    Service.ScriptFetch fetch = ModelCodec.decode(ModelCodec.encode(model)).service().scriptFetch();
    assertThat(fetch.allowPrivateNetworks()).isFalse();
    assertThat(fetch.allowedNetworks())
        .extracting(IpNetwork::toString)
        .containsExactly("10.9.0.0/16", "169.254.169.254/32");
    assertThat(ModelCodec.decode(olderFormat(model, 13)).service().scriptFetch())
        .isEqualTo(Service.ScriptFetch.DEFAULT);
  }

  @Test
  void pushNotificationSettingsSurviveTheRoundTrip() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    Service.PushNotifications push =
        ModelCodec.decode(ModelCodec.encode(model)).service().pushNotifications();
    assertThat(push.allowPrivateNetworks()).isTrue();
    assertThat(push.allowedNetworks())
        .extracting(IpNetwork::toString)
        .containsExactly("10.1.0.0/16", "fd00:0:0:0:0:0:0:1/128");
  }

  @Test
  void serverAuthSurvivesTheRoundTripWithItsPlaceholdersAndAFormatNineFileReadsWithoutIt() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    ServerAuth auth = ModelCodec.decode(ModelCodec.encode(model)).service().auth().orElseThrow();
    assertThat(auth.plugin()).isEqualTo("oauth");
    assertThat(auth.issuer().template()).isEqualTo("{{ env.OIDC_ISSUER }}");
    assertThat(auth.audience().template()).isEqualTo("https://api.example.com/mcp");
    assertThat(auth.scopes()).containsExactly("mcp:tools", "mcp:read");
    assertThat(auth.jwksUri().orElseThrow().template()).isEqualTo("https://auth.example.com/keys");
    assertThat(ModelCodec.decode(olderFormat(model, 9)).service().auth()).isEmpty();
  }

  @Test
  void
      introspectionSurvivesTheRoundTripWithItsSecretAPlaceholderAndAFormatElevenFileReadsWithout() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    byte[] encoded = ModelCodec.encode(model);
    ServerAuth.Introspection introspection =
        ModelCodec.decode(encoded).service().auth().orElseThrow().introspection().orElseThrow();
    assertThat(introspection.clientId().template()).isEqualTo("svc");
    assertThat(introspection.clientSecret().template()).isEqualTo("{{ env.INTROSPECTION_SECRET }}");
    assertThat(introspection.endpoint().orElseThrow().template())
        .isEqualTo("https://auth.example.com/introspect");
    assertThat(introspection.everyToken()).isTrue();
    assertThat(introspection.cacheTime()).isEqualTo(Duration.ofSeconds(30));

    ServerAuth formatEleven =
        ModelCodec.decode(olderFormat(model, 11)).service().auth().orElseThrow();
    assertThat(formatEleven.introspection()).isEmpty();
    assertThat(formatEleven.issuer().template()).isEqualTo("{{ env.OIDC_ISSUER }}");
    assertThat(ModelCodec.decode(olderFormat(model, 11)).tool("get_item"))
        .isEqualTo(model.tool("get_item"));
  }

  @Test
  void introspectionDefaultsToOpaqueTokensAndAMinuteOfCache() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: defaults
            server:
              auth:
                plugin: oauth
                policy:
                  issuer: https://auth.example.com
                  audience: https://api.example.com/mcp
                  introspection:
                    client_id: svc
                    client_secret: "{{ env.SECRET }}"
            prompts:
              - name: hello
                messages: [{role: user, text: Hi}]
            """);
    ServerAuth.Introspection introspection =
        model.service().auth().orElseThrow().introspection().orElseThrow();
    assertThat(introspection.everyToken()).isFalse();
    assertThat(introspection.endpoint()).isEmpty();
    assertThat(introspection.cacheTime()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void theTaskStoreSurvivesTheRoundTripAndAFormatElevenFileKeepsTasksInMemory() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shared
            agents:
              tasks:
                store: state
                lease_seconds: 12
                retention_hours: 48
            == app/adapters/state.terse
            connector: redis
            connection_string: "{{ env.REDIS_URL }}"
            == app/tools/hello/config.terse
            description: Says hello.
            use: state
            statement: PING
            """);
    Service.Tasks tasks = ModelCodec.decode(ModelCodec.encode(model)).service().tasks();
    assertThat(tasks)
        .isEqualTo(
            new Service.Tasks(
                java.util.Optional.of("state"),
                java.time.Duration.ofSeconds(12),
                java.time.Duration.ofHours(48)));
    assertThat(ModelCodec.decode(olderFormat(model, 11)).service().tasks())
        .isEqualTo(Service.Tasks.IN_MEMORY);
  }

  @Test
  void theTaskRunLimitsSurviveTheRoundTripAndAFormatTwelveFileHasTheDefaults() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: busy
            agents:
              tasks:
                retention_hours: 2
                max_running: 16
                max_waiting: 0
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/hello/config.terse
            description: Says hello.
            use: db
            statement: SELECT 1
            """);
    Service.Tasks tasks = ModelCodec.decode(ModelCodec.encode(model)).service().tasks();
    assertThat(tasks)
        .isEqualTo(
            new Service.Tasks(
                java.util.Optional.empty(),
                Service.Tasks.DEFAULT_LEASE,
                java.time.Duration.ofHours(2),
                16,
                0));
    Service.Tasks older = ModelCodec.decode(olderFormat(model, 12)).service().tasks();
    assertThat(older.maxRunning()).isEqualTo(Service.Tasks.DEFAULT_MAX_RUNNING);
    assertThat(older.maxWaiting()).isEqualTo(Service.Tasks.DEFAULT_MAX_WAITING);
    assertThat(older.retention()).isEqualTo(java.time.Duration.ofHours(2));
  }

  @Test
  void theRateLimitStoreSurvivesTheRoundTripAfterTheDrainDelayAndAFormatElevenFileCountsInMemory() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shared
            server:
              limits:
                drain_delay: 7
            tools:
              rate_limit: {requests: 10, per: 1m, store: limits}
            == app/adapters/limits.terse
            connector: redis
            connection_string: "{{ env.REDIS_URL }}"
            == app/tools/hello/config.terse
            description: Says hello.
            use: limits
            statement: PING
            """);
    Service read = ModelCodec.decode(ModelCodec.encode(model)).service();
    assertThat(read.rateLimitStore()).contains("limits");
    assertThat(read.limits().drainDelay()).isEqualTo(java.time.Duration.ofSeconds(7));
    assertThat(read).isEqualTo(model.service());
    assertThat(ModelCodec.decode(olderFormat(model, 11)).service().rateLimitStore()).isEmpty();
  }

  @Test
  void theCacheStoreSurvivesTheRoundTripAfterTheRateLimitStoreAndAFormatElevenFileCachesInMemory() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: shared
            tools:
              rate_limit: {requests: 10, store: limits}
              cache: {enabled: true, ttl: 30, store: results}
            == app/adapters/limits.terse
            connector: redis
            connection_string: "{{ env.REDIS_URL }}"
            == app/adapters/results.terse
            connector: redis
            connection_string: "{{ env.CACHE_REDIS_URL }}"
            == app/tools/hello/config.terse
            description: Says hello.
            use: limits
            statement: PING
            """);
    Service read = ModelCodec.decode(ModelCodec.encode(model)).service();
    assertThat(read.cacheStore()).contains("results");
    assertThat(read.rateLimitStore()).contains("limits");
    assertThat(read).isEqualTo(model.service());
    assertThat(ModelCodec.decode(olderFormat(model, 11)).service().cacheStore()).isEmpty();
  }

  @Test
  void aToolsDigestIsEqualForEqualToolsAndChangesWithTheToolsDefinition() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    Model again = ModelCodec.decode(ModelCodec.encode(model));
    for (Tool tool : model.tools()) {
      assertThat(ModelCodec.digest(again.tool(tool.name()).orElseThrow()))
          .isEqualTo(ModelCodec.digest(tool))
          .hasSize(32);
    }
    Tool first = model.tools().getFirst();
    Tool reworded =
        new Tool(
            first.name(),
            first.description() + " Reworded.",
            first.inputs(),
            first.execution(),
            first.inputMapper(),
            first.outputMapper(),
            first.auth(),
            first.cache(),
            first.timeout(),
            first.caps(),
            first.readOnly(),
            first.annotations(),
            first.outputSchema(),
            first.confirm(),
            first.inputSchema(),
            first.rateLimit());
    assertThat(reworded).isNotEqualTo(first);
    assertThat(ModelCodec.digest(reworded)).isNotEqualTo(ModelCodec.digest(first));
  }

  @Test
  void aFormatFourFileReadsWithTheDefaultServerLimits() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    byte[] formatFour = olderFormat(model, 4);
    assertThat(ModelCodec.decode(formatFour).service().limits()).isEqualTo(Service.Limits.DEFAULTS);
  }

  @Test
  void theDrainDelayRoundTripsAndAFormatElevenFileReadsWithNone() {
    Model model =
        ProjectFixture.model(
            dir.resolve("delay"),
            """
            == .svc
            name: delay
            server:
              limits: {drain_delay: 7, drain_timeout: 20}
            == app/tools/t/config.terse
            description: T.
            statement: SELECT 1
            use: db
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/ping/config.terse
            description: Ping.
            use: db
            statement: SELECT 1 AS one
            """);
    Service.Limits limits = ModelCodec.decode(ModelCodec.encode(model)).service().limits();
    assertThat(limits.drainDelay()).isEqualTo(java.time.Duration.ofSeconds(7));
    assertThat(limits.drainTimeout()).isEqualTo(java.time.Duration.ofSeconds(20));

    Service.Limits eleven = ModelCodec.decode(olderFormat(model, 11)).service().limits();
    assertThat(eleven.drainDelay()).isZero();
    assertThat(eleven.drainTimeout()).isEqualTo(java.time.Duration.ofSeconds(20));
  }

  @Test
  void serverLimitsRoundTrip() {
    Model model =
        ProjectFixture.model(
            dir.resolve("limits"),
            """
            == .svc
            name: limits
            server:
              limits: {max_body_mb: 2, header_timeout: 3, body_timeout: 4, connections_per_client: 0, drain_timeout: 0}
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/t/config.terse
            description: T.
            use: db
            statement: SELECT 1
            """);
    Service.Limits limits = ModelCodec.decode(ModelCodec.encode(model)).service().limits();
    assertThat(limits)
        .isEqualTo(
            new Service.Limits(
                2 * 1024 * 1024,
                java.time.Duration.ofSeconds(3),
                java.time.Duration.ofSeconds(4),
                0,
                java.time.Duration.ZERO));
  }

  @Test
  void readOnlyAnnotationsAndDeclaredOutputSchemasSurviveTheRoundTrip() {
    Model decoded = ModelCodec.decode(ModelCodec.encode(ProjectFixture.model(dir, EVERYTHING)));
    Tool getItem =
        decoded.tools().stream().filter(t -> t.name().equals("get_item")).findFirst().get();
    Tool hello = decoded.tools().stream().filter(t -> t.name().equals("hello")).findFirst().get();

    assertThat(getItem.readOnly()).isTrue();
    assertThat(getItem.annotations())
        .isEqualTo(
            new ToolAnnotations(
                java.util.Optional.of("Get an item"),
                java.util.Optional.of(true),
                java.util.Optional.of(false),
                java.util.Optional.of(true),
                java.util.Optional.of(true)));
    assertThat(hello.annotations()).isEqualTo(ToolAnnotations.NONE);
    assertThat(hello.outputSchema())
        .contains(
            "{\"type\":\"object\",\"properties\":{\"greeting\":{\"type\":\"string\",\"maxLength\":100}},\"required\":[\"greeting\"]}");
  }

  @Test
  void aFormatFiveFileReadsToolsAsWritableWithoutAnnotationsOrSchemas() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    byte[] formatFive = olderFormat(model, 5);
    Model decoded = ModelCodec.decode(formatFive);

    assertThat(decoded.tools())
        .allSatisfy(tool -> {
          assertThat(tool.readOnly()).isFalse();
          assertThat(tool.annotations()).isEqualTo(ToolAnnotations.NONE);
          assertThat(tool.outputSchema()).isEmpty();
        });
  }

  @Test
  void confirmationsSurviveTheRoundTripAndAFormatSevenFileReadsToolsWithoutThem() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    Tool getItem =
        ModelCodec.decode(ModelCodec.encode(model)).tools().stream()
            .filter(t -> t.name().equals("get_item"))
            .findFirst()
            .orElseThrow();
    assertThat(getItem.confirm()).contains(new Confirmation("Read item {{ inputs.id }}?", true));

    Model formatSeven = ModelCodec.decode(olderFormat(model, 7));
    assertThat(formatSeven.tools()).allSatisfy(tool -> assertThat(tool.confirm()).isEmpty());
  }

  @Test
  void declaredInputSchemasSurviveTheRoundTripAndAFormatEightFileReadsWithoutThem() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    Tool contact = ModelCodec.decode(ModelCodec.encode(model)).tool("contact").orElseThrow();
    assertThat(contact.inputSchema())
        .contains(
            "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","
                + "\"$defs\":{\"address\":{\"$anchor\":\"addressDef\",\"type\":\"object\"}},"
                + "\"properties\":{\"name\":{\"type\":\"string\"},"
                + "\"address\":{\"$ref\":\"#/$defs/address\"}},"
                + "\"required\":[\"name\"],\"additionalProperties\":false}");

    Model formatEight = ModelCodec.decode(olderFormat(model, 8));
    assertThat(formatEight.tools()).allSatisfy(tool -> assertThat(tool.inputSchema()).isEmpty());
    assertThat(formatEight.tool("get_item").orElseThrow())
        .isEqualTo(model.tool("get_item").orElseThrow());
  }

  @Test
  void rateLimitsSurviveTheRoundTripAndAFormatTenFileReadsToolsWithoutThem() {
    Model model = ProjectFixture.model(dir, EVERYTHING);
    Model read = ModelCodec.decode(ModelCodec.encode(model));
    assertThat(read.tool("find_docs").orElseThrow().rateLimit())
        .contains(new RateLimit(5, Duration.ofMillis(1500)));
    assertThat(read.tool("get_item").orElseThrow().rateLimit()).isEmpty();

    Model formatTen = ModelCodec.decode(olderFormat(model, 10));
    assertThat(formatTen.tools()).allSatisfy(tool -> assertThat(tool.rateLimit()).isEmpty());
    assertThat(formatTen.tool("get_item").orElseThrow())
        .isEqualTo(model.tool("get_item").orElseThrow());
  }

  @Test
  void aStatementsSessionSurvivesTheRoundTripAndAFormatElevenFileReadsToolsWithoutOne() {
    Model model =
        ProjectFixture.model(
            dir,
            EVERYTHING
                + """
                == app/tools/my_notes/config.terse
                description: My notes.
                use: db
                statement: SELECT id FROM notes ORDER BY id
                session:
                  settings: {app.user_id: "{{ auth.claims.sub }}", app.via: mcp}
                  role: "{{ auth.claims.db_role }}"
                  allowed_roles: [reader, writer]
                """);
    Model read = ModelCodec.decode(ModelCodec.encode(model));
    assertThat(read.tool("my_notes")).isEqualTo(model.tool("my_notes"));
    assertThat(((Execution.OnAdapter) read.tool("my_notes").orElseThrow().execution()).session())
        .isPresent();

    Model formatEleven = ModelCodec.decode(olderFormat(model, 11));
    assertThat(
            ((Execution.OnAdapter) formatEleven.tool("my_notes").orElseThrow().execution())
                .session())
        .isEmpty();
    assertThat(formatEleven.tool("get_item")).isEqualTo(model.tool("get_item"));
  }

  @Test
  void aPromptArgumentsDefaultSurvivesTheRoundTripAndAFormatElevenFileReadsArgumentsWithoutOne() {
    Model model =
        ProjectFixture.model(
            dir,
            EVERYTHING
                + """
                == app/prompts/triage.terse
                arguments:
                  ticket: {required: true}
                  tone: {default: neutral, completion: [formal, neutral]}
                  extra: {default: ""}
                messages:
                  - {role: user, text: "Classify {{ ticket }} in a {{ tone }} tone.{{ extra }}"}
                """);
    assertThat(model.prompt("triage").orElseThrow().arguments())
        .extracting(Argument::defaultValue)
        .containsExactly(Optional.empty(), Optional.of("neutral"), Optional.of(""));

    Model read = ModelCodec.decode(ModelCodec.encode(model));
    assertThat(read.prompt("triage")).isEqualTo(model.prompt("triage"));

    Model formatEleven = ModelCodec.decode(olderFormat(model, 11));
    assertThat(formatEleven.prompt("triage").orElseThrow().arguments())
        .extracting(Argument::defaultValue)
        .containsOnly(Optional.empty());
    assertThat(formatEleven.prompt("review")).isEqualTo(model.prompt("review"));
  }

  @Test
  void aFileFromANewerSvcIsRefusedClearly() {
    byte[] bytes = ModelCodec.encode(ProjectFixture.model(dir, EVERYTHING));
    bytes[8] = 0;
    bytes[9] = (byte) (ModelCodec.FORMAT_VERSION + 1);
    assertThatThrownBy(() -> ModelCodec.decode(bytes))
        .isInstanceOf(ArtifactException.class)
        .hasMessageStartingWith(
            "the model was built by a newer svc (format " + (ModelCodec.FORMAT_VERSION + 1));
  }

  @Test
  void somethingElseIsNotAModel() {
    assertThatThrownBy(() ->
            ModelCodec.decode(
                "hello world, this is not a model at all.....".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(ArtifactException.class)
        .hasMessage("not an svc model file (it does not start with SVCMODEL)");
    byte[] truncated = Arrays.copyOf(ModelCodec.encode(ProjectFixture.model(dir, EVERYTHING)), 20);
    assertThatThrownBy(() -> ModelCodec.decode(truncated)).isInstanceOf(ArtifactException.class);
  }

  /**
   * The checksum catches damage, not an edit that recomputes it: whatever a byte of the body is
   * changed to, the file either reads or is refused as damaged, never with another exception (an
   * unknown connector or message role number was an {@code ArrayIndexOutOfBoundsException}, a bad
   * push notification network an {@code UncheckedIOException}).
   */
  @Test
  void anEditedFileWithARecomputedChecksumIsRefusedAsDamaged() {
    byte[] file = ModelCodec.encode(ProjectFixture.model(dir, EVERYTHING));
    byte[] body = Arrays.copyOf(file, file.length - 4);
    List<String> escaped = new java.util.ArrayList<>();
    for (int at = 10; at < body.length; at++) {
      for (int value : new int[] {0x01, 0xff}) {
        byte[] edited = body.clone();
        edited[at] = (byte) value;
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(edited);
        byte[] withChecksum =
            java.nio.ByteBuffer.allocate(edited.length + 4)
                .put(edited)
                .putInt((int) crc.getValue())
                .array();
        try {
          ModelCodec.decode(withChecksum);
        } catch (ArtifactException expected) {
          assertThat(expected.getMessage()).contains("rebuild");
        } catch (RuntimeException e) {
          escaped.add("byte " + at + " = " + value + ": " + e);
        }
      }
    }
    assertThat(escaped).isEmpty();
  }

  @Test
  void anUnknownConnectorNumberIsNamedInTheDamage() {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: one
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/tools/ping/config.terse
            description: Ping.
            use: db
            statement: SELECT 1 AS one
            """);
    byte[] file = ModelCodec.encode(model);
    byte[] body = Arrays.copyOf(file, file.length - 4);
    // the adapter's name, then its connector's number
    byte[] name = "\u0000\u0000\u0000\u0002db".getBytes(StandardCharsets.US_ASCII);
    int at = indexOf(body, name) + name.length;
    assertThat(body[at]).isEqualTo((byte) ConnectorKind.SQLITE.ordinal());
    body[at] = (byte) 200;
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(body);
    byte[] edited =
        java.nio.ByteBuffer.allocate(body.length + 4)
            .put(body)
            .putInt((int) crc.getValue())
            .array();
    assertThatThrownBy(() -> ModelCodec.decode(edited))
        .isInstanceOf(ArtifactException.class)
        .hasMessage("the model file is damaged (unknown connector 200); rebuild it");
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }

  /** {@code model} written as format {@code version} (4 or later: the body and its CRC32C). */
  private static byte[] olderFormat(Model model, int version) {
    byte[] body = ModelCodec.body(model, version);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(body);
    return java.nio.ByteBuffer.allocate(body.length + 4)
        .put(body)
        .putInt((int) crc.getValue())
        .array();
  }
}

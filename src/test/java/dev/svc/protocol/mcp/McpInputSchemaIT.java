package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.json.Json;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Tools that declare their own {@code input_schema}, over real HTTP: {@code tools/list} and {@code
 * search} show the schema as written, a call whose arguments conform reaches the handler (or the
 * statement) with them as sent, and one that does not is an {@code isError} result saying where and
 * which keyword, whatever the arguments are.
 */
class McpInputSchemaIT {
  /** The schema of the MCP conformance suite's {@code json_schema_2020_12_tool}. */
  static final String CONTACT_SCHEMA =
      """
      {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
       "$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
       "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},
         "contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},
       "allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
       "if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},
       "then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false}
      """;

  private static final String PROJECT =
      """
      == .svc
      name: schemas
      == app/adapters/memory.terse
      connector: sqlite
      connection_string: ":memory:"
      == app/tools/contact/config.terse
      description: Records how to reach someone.
      input_schema:
        $schema: https://json-schema.org/draft/2020-12/schema
        type: object
        $defs:
          address:
            $anchor: addressDef
            type: object
            properties:
              street: {type: string}
              city: {type: string}
        properties:
          name: {type: string}
          address: {$ref: "#/$defs/address"}
          contactMethod: {type: string, enum: [phone, email]}
          phone: {type: string}
          email: {type: string}
        allOf:
          - anyOf:
              - required: [phone]
              - required: [email]
        if:
          properties:
            contactMethod: {const: phone}
          required: [contactMethod]
        then:
          required: [phone]
        else:
          required: [email]
        additionalProperties: false
      == app/tools/contact/handler.ts
      export default ({ inputs }: { inputs: Record<string, unknown> }) => ({ received: inputs });
      == app/tools/tree/config.terse
      description: Counts the levels of a nested tree.
      input_schema:
        type: object
        properties:
          child: {$ref: "#"}
          items: {type: array, items: {type: integer}, uniqueItems: true}
          code: {type: string, pattern: "^(.*a){12}$"}
        additionalProperties: false
      == app/tools/tree/handler.ts
      export default () => "ok";
      == app/tools/repeat/config.terse
      description: Repeats a word.
      use: memory
      statement: SELECT {{ inputs.word }} AS word, {{ inputs.times }} AS times
      input_schema:
        type: object
        properties:
          word: {type: string, minLength: 1}
          times: {type: integer, minimum: 1, maximum: 3}
        required: [word, times]
      """;

  @TempDir static Path dir;
  private static Instance instance;
  private static McpHttpClient client;

  @BeforeAll
  static void start() {
    instance = RunningProject.start(dir.resolve("project"), PROJECT);
    client = new McpHttpClient(instance.baseUrl());
    client.initialize();
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  @Test
  void toolsListShowsTheDeclaredSchemaAsWritten() {
    Map<String, JsonNode> listed = new HashMap<>();
    for (JsonNode tool : client.request("tools/list", "{}").path("result").path("tools")) {
      listed.put(tool.path("name").asString(), tool);
    }
    assertThat(listed.get("contact").path("inputSchema"))
        .isEqualTo(Json.MAPPER.readTree(CONTACT_SCHEMA));
    // key order as written, too
    assertThat(listed.get("contact").path("inputSchema").propertyNames())
        .containsExactly(
            "$schema",
            "type",
            "$defs",
            "properties",
            "allOf",
            "if",
            "then",
            "else",
            "additionalProperties");
    // a capped statement tool with a declared schema offers no cursor: its schema is the user's
    assertThat(listed.get("repeat").path("inputSchema").path("properties").has("cursor")).isFalse();
  }

  @Test
  void searchShowsTheDeclaredSchemaToo() {
    JsonNode found =
        structured(client.call("search", "{\"query\": \"reach someone contact\"}")).path("result");
    JsonNode contact = null;
    for (JsonNode entry : found) {
      if (entry.path("name").asString().equals("contact")) {
        contact = entry;
      }
    }
    assertThat(contact).as(found.toString()).isNotNull();
    assertThat(contact.path("inputSchema")).isEqualTo(Json.MAPPER.readTree(CONTACT_SCHEMA));
  }

  @Test
  void conformingArgumentsReachTheHandlerAsSent() {
    String arguments =
        "{\"name\":\"Ada\",\"contactMethod\":\"phone\",\"phone\":\"+44 20\","
            + "\"address\":{\"street\":\"1 Main St\",\"city\":\"London\"}}";
    JsonNode result = client.call("contact", arguments).path("result");
    assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
    assertThat(result.path("structuredContent").path("received"))
        .isEqualTo(Json.MAPPER.readTree(arguments));
  }

  @Test
  void argumentsThatBreakTheSchemaAreAToolErrorNamingWhereAndWhichKeyword() {
    assertThat(error(client.call("contact", "{\"name\": 1, \"email\": \"a@b.c\"}")))
        .isEqualTo(
            "invalid arguments: `/name`: integer found, string expected"
                + " (keyword `type` at `/properties/name/type`)");
    assertThat(
            error(
                client.call(
                    "contact", "{\"contactMethod\": \"phone\", \"email\": \"a@b.c\", \"x\": 1}")))
        .isEqualTo(
            "invalid arguments: arguments: required property 'phone' not found (keyword"
                + " `required` at `/then/required`); arguments: property 'x' is not defined in the"
                + " schema and the schema does not allow additional properties (keyword"
                + " `additionalProperties` at `/additionalProperties`)");
    assertThat(error(client.call("contact", "{\"email\": \"a@b.c\", \"address\": {\"city\": 7}}")))
        .isEqualTo(
            "invalid arguments: `/address/city`: integer found, string expected (keyword `type`"
                + " at `/properties/address/$ref/properties/city/type`)");
  }

  @Test
  void missingArgumentsAreCheckedAsAnEmptyObject() {
    JsonNode reply = client.request("tools/call", "{\"name\": \"contact\"}").path("result");
    assertThat(error(reply))
        .startsWith("invalid arguments: arguments: required property 'phone' not found");
  }

  @Test
  void aStatementBindsTheCheckedArguments() {
    JsonNode ok = client.call("repeat", "{\"word\": \"hi\", \"times\": 2}").path("result");
    assertThat(structured(ok).path("rows"))
        .isEqualTo(Json.MAPPER.readTree("[{\"word\":\"hi\",\"times\":2}]"));
    assertThat(error(client.call("repeat", "{\"word\": \"\", \"times\": 9}")))
        .isEqualTo(
            "invalid arguments: `/word`: must be at least 1 characters long (keyword `minLength`"
                + " at `/properties/word/minLength`); `/times`: must have a maximum value of 3"
                + " (keyword `maximum` at `/properties/times/maximum`)");
  }

  @Test
  void manyProblemsAreListedUpToFiveThenCounted() {
    StringBuilder arguments = new StringBuilder("{");
    for (int i = 0; i < 40; i++) {
      arguments.append(i == 0 ? "" : ",").append("\"extra").append(i).append("\": ").append(i);
    }
    String message = error(client.call("tree", arguments.append("}").toString()));
    assertThat(message).endsWith("; and 35 more");
    assertThat(message.split("property 'extra", -1)).hasSize(6);
  }

  @Test
  void hostileArgumentsGetAnAnswerAndTheServerStaysUp() {
    // nested as deep as the JSON reader allows, against a schema that recurses per level
    int depth = 490;
    String deep = "{\"child\":".repeat(depth) + "{}" + "}".repeat(depth);
    JsonNode nested = client.call("tree", deep).path("result");
    assertThat(nested.path("isError").asBoolean()).as(nested.toString()).isFalse();

    // deeper than JSON reading allows: refused before any tool runs, not a crash
    String deeper = "{\"child\":".repeat(2000) + "{}" + "}".repeat(2000);
    McpHttpClient.Reply tooDeep =
        client.post(
            client.requestBody("tools/call", "{\"name\":\"tree\",\"arguments\":" + deeper + "}"));
    assertThat(tooDeep.status()).isLessThan(500);

    // 100 000 distinct integers under uniqueItems: checked in well under the call's deadline
    StringBuilder items = new StringBuilder("{\"items\":[");
    for (int i = 0; i < 100_000; i++) {
      items.append(i == 0 ? "" : ",").append(i);
    }
    long started = System.nanoTime();
    JsonNode many = client.call("tree", items.append("]}").toString()).path("result");
    assertThat(many.path("isError").asBoolean()).as(many.toString()).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));

    // a pattern that backtracks exponentially, on a string crafted for it: stopped and refused
    started = System.nanoTime();
    assertThat(error(client.call("tree", "{\"code\": \"" + "a".repeat(40) + "!\"}")))
        .isEqualTo(
            "invalid arguments: arguments: the value takes too long to match the `pattern`s of"
                + " the schema");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    assertThat(
            client
                .call("tree", "{\"code\": \"" + "a".repeat(12) + "\"}")
                .path("result")
                .path("isError")
                .asBoolean())
        .isFalse();

    // wrong types everywhere, arrays where objects belong: tool errors
    assertThat(error(client.call("tree", "{\"child\": [1, 2], \"items\": \"no\"}")))
        .contains("`/child`: array found, object expected")
        .contains("`/items`: string found, array expected");

    JsonNode after = client.call("contact", "{\"email\": \"a@b.c\"}").path("result");
    assertThat(after.path("isError").asBoolean()).as(after.toString()).isFalse();
  }

  private static String error(JsonNode response) {
    JsonNode result = response.has("result") ? response.path("result") : response;
    assertThat(result.path("isError").asBoolean()).as(result.toString()).isTrue();
    return result.path("content").get(0).path("text").asString();
  }

  private static JsonNode structured(JsonNode response) {
    JsonNode result = response.has("result") ? response.path("result") : response;
    assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
    return result.path("structuredContent");
  }
}

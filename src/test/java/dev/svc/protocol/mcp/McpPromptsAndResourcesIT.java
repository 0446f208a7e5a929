package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Prompts, resources, templates, completion and subscriptions over real HTTP. */
class McpPromptsAndResourcesIT {
  @TempDir static Path dir;
  static Instance instance;
  static McpHttpClient client;
  static final byte[] CHART = {(byte) 0x89, 'P', 'N', 'G', 9, 8, 7};

  @BeforeAll
  static void start() throws Exception {
    Files.createDirectories(dir.resolve("app/resources/logo"));
    Files.write(
        dir.resolve("app/resources/logo/logo.png"),
        new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2, (byte) 0xff});
    Files.createDirectories(dir.resolve("app/prompts/media"));
    Files.write(dir.resolve("app/prompts/media/chart.png"), CHART);
    instance =
        RunningProject.start(
            dir,
            """
            == .svc
            name: content
            prompts:
              - name: inline_prompt
                description: Declared in .svc.
                messages:
                  - role: user
                    text: Inline {{ x }}
            resources:
              - uri: root://about
                mime_type: text/markdown
                text: "# About\\nDeclared in .svc."
              - uri: root://notes
                name: root-notes
                description: Notes kept beside .svc.
                file: notes/root.txt
            resource_templates:
              - uri_template: "notes://{topic}"
                name: notes
                text_template: "Notes about {{ topic }}"
                arguments:
                  topic: {completion: [Coffee, cocoa, Tea]}
            == notes/root.txt
            Root notes
            == app/prompts/review.terse
            title: Review code
            description: Ask for a review.
            arguments:
              language: {required: true, completion: [java, javascript, python]}
              focus: {description: What to look at}
              tone: {description: Tone of the review, default: friendly}
            messages:
              - role: system
                text: You review {{ language }} code.
              - role: user
                text: "Focus on {{ focus }} please, in a {{ tone }} tone. Keep {{ unknown }}."
              - role: assistant
                text: Sure.
            == app/prompts/media/show.terse
            description: An image and resources in messages.
            arguments:
              uri: {required: true}
            messages:
              - role: user
                image: chart.png
              - role: system
                resource: "{{ uri }}"
              - role: assistant
                resource: images://logo
              - role: user
                text: What do you see?
            == app/resources/guide/config.terse
            name: guide
            title: The guide
            uri: docs://guide
            file: guide.md
            == app/resources/guide/guide.md
            # Guide
            == app/resources/logo/config.terse
            name: logo
            uri: images://logo
            file: logo.png
            == app/resources/inline/config.terse
            name: inline
            uri: text://hello
            text: Hello there
            == app/resources/files/config.terse
            name: files
            uri_template: "files://{name}"
            file_template: "docs/{{ name }}.txt"
            == app/resources/files/docs/a.txt
            File A
            == app/resources/items/config.terse
            name: items
            uri_template: "items://{id}/data"
            mime_type: application/json
            text_template: '{"id": "{{ id }}"}'
            """);
    client = new McpHttpClient(instance.baseUrl());
    client.initialize();
  }

  @AfterAll
  static void stop() {
    instance.close();
  }

  @Test
  void promptsAreListedByNameWithTheirArguments() {
    JsonNode prompts = client.request("prompts/list", "{}").path("result").path("prompts");
    assertThat(prompts.valueStream().map(p -> p.path("name").asString()).toList())
        .containsExactly("inline_prompt", "review", "show");
    JsonNode review = prompts.get(1);
    assertThat(review.path("title").asString()).isEqualTo("Review code");
    assertThat(review.path("arguments").get(0).path("name").asString()).isEqualTo("language");
    assertThat(review.path("arguments").get(0).path("required").asBoolean()).isTrue();
  }

  @Test
  void getRendersMessagesInOrderAndLeavesUnsuppliedPlaceholders() {
    JsonNode result =
        client
            .request("prompts/get", "{\"name\":\"review\",\"arguments\":{\"language\":\"Java\"}}")
            .path("result");
    JsonNode messages = result.path("messages");
    assertThat(messages.size()).isEqualTo(3);
    assertThat(messages.get(0).path("role").asString()).isEqualTo("user");
    assertThat(messages.get(0).path("_meta").path("svc/role").asString()).isEqualTo("system");
    assertThat(messages.get(0).path("content").path("text").asString())
        .isEqualTo("You review Java code.");
    assertThat(messages.get(1).path("content").path("text").asString())
        .isEqualTo("Focus on {{ focus }} please, in a friendly tone. Keep {{ unknown }}.");
    assertThat(messages.get(2).path("role").asString()).isEqualTo("assistant");
  }

  @Test
  void anAbsentOrNullArgumentTakesItsDefaultAndASentOneWinsEvenWhenEmpty() {
    assertThat(reviewFocus("{\"language\":\"Go\",\"tone\":null}"))
        .isEqualTo("Focus on {{ focus }} please, in a friendly tone. Keep {{ unknown }}.");
    assertThat(reviewFocus("{\"language\":\"Go\",\"tone\":\"strict\",\"focus\":\"naming\"}"))
        .isEqualTo("Focus on naming please, in a strict tone. Keep {{ unknown }}.");
    assertThat(reviewFocus("{\"language\":\"Go\",\"tone\":\"\"}"))
        .isEqualTo("Focus on {{ focus }} please, in a  tone. Keep {{ unknown }}.");
  }

  @Test
  void aDefaultIsNotSentInPromptsListWhichHasOnlyMcpsArgumentFields() {
    JsonNode tone =
        client
            .request("prompts/list", "{}")
            .path("result")
            .path("prompts")
            .get(1)
            .path("arguments")
            .get(2);
    assertThat(tone.propertyNames()).containsExactlyInAnyOrder("name", "description", "required");
    assertThat(tone.path("required").asBoolean()).isFalse();
  }

  private static String reviewFocus(String arguments) {
    return client
        .request("prompts/get", "{\"name\":\"review\",\"arguments\":" + arguments + "}")
        .path("result")
        .path("messages")
        .get(1)
        .path("content")
        .path("text")
        .asString();
  }

  @Test
  void getSendsImagesAndResourcesAsMcpContentWithTheSystemRoleMarked() {
    JsonNode messages =
        client
            .request(
                "prompts/get", "{\"name\":\"show\",\"arguments\":{\"uri\":\"items://7/data\"}}")
            .path("result")
            .path("messages");
    assertThat(messages.size()).isEqualTo(4);
    JsonNode image = messages.get(0).path("content");
    assertThat(image.path("type").asString()).isEqualTo("image");
    assertThat(image.path("mimeType").asString()).isEqualTo("image/png");
    assertThat(Base64.getDecoder().decode(image.path("data").asString())).isEqualTo(CHART);
    assertThat(messages.get(1).path("role").asString()).isEqualTo("user");
    assertThat(messages.get(1).path("_meta").path("svc/role").asString()).isEqualTo("system");
    assertThat(messages.get(1).path("content").toString())
        .isEqualTo(
            "{\"type\":\"resource\",\"resource\":{\"uri\":\"items://7/data\","
                + "\"mimeType\":\"application/json\",\"text\":\"{\\\"id\\\": \\\"7\\\"}\"}}");
    assertThat(messages.get(2).path("role").asString()).isEqualTo("assistant");
    JsonNode logo = messages.get(2).path("content").path("resource");
    assertThat(logo.path("uri").asString()).isEqualTo("images://logo");
    assertThat(logo.path("mimeType").asString()).isEqualTo("image/png");
    assertThat(Base64.getDecoder().decode(logo.path("blob").asString())).hasSize(8);
    assertThat(messages.get(3).path("content").path("text").asString())
        .isEqualTo("What do you see?");
  }

  @Test
  void aPromptResourceUriThatMatchesNothingIsResourceNotFoundLikeResourcesRead() {
    JsonNode error =
        client
            .request(
                "prompts/get", "{\"name\":\"show\",\"arguments\":{\"uri\":\"docs://missing\"}}")
            .path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32002);
    assertThat(error.path("message").asString()).isEqualTo("Resource not found");
    assertThat(error.path("data").path("uri").asString()).isEqualTo("docs://missing");
    JsonNode traversal =
        client
            .request(
                "prompts/get",
                "{\"name\":\"show\",\"arguments\":{\"uri\":\"files://..%2F..%2F.svc\"}}")
            .path("error");
    assertThat(traversal.path("code").asInt()).isEqualTo(-32602);
  }

  @Test
  void unknownPromptsAndMissingRequiredArgumentsAreInvalidParams() {
    assertThat(
            client.request("prompts/get", "{\"name\":\"nope\"}").path("error").path("code").asInt())
        .isEqualTo(-32602);
    JsonNode missing =
        client.request("prompts/get", "{\"name\":\"review\",\"arguments\":{}}").path("error");
    assertThat(missing.path("code").asInt()).isEqualTo(-32602);
    assertThat(missing.path("message").asString())
        .isEqualTo("prompt `review` needs the argument(s) `language`");
  }

  @Test
  void anUnknownPromptOrResourceCloseToAKnownOneSuggestsIt() {
    JsonNode prompt = client.request("prompts/get", "{\"name\":\"reveiw\"}").path("error");
    assertThat(prompt.path("code").asInt()).isEqualTo(-32602);
    assertThat(prompt.path("message").asString())
        .isEqualTo("Unknown prompt: reveiw; did you mean `review`?");
    JsonNode resource = client.request("resources/read", "{\"uri\":\"docs://guid\"}").path("error");
    assertThat(resource.path("code").asInt()).isEqualTo(-32002);
    assertThat(resource.path("message").asString())
        .isEqualTo("Resource not found; did you mean `docs://guide`?");
    assertThat(resource.path("data").path("uri").asString()).isEqualTo("docs://guid");
    assertThat(
            client
                .request("prompts/get", "{\"name\":\"nope\"}")
                .path("error")
                .path("message")
                .asString())
        .isEqualTo("Unknown prompt: nope");
  }

  @Test
  void resourcesAndTemplatesAreListed() {
    JsonNode resources = client.request("resources/list", "{}").path("result").path("resources");
    assertThat(resources.valueStream().map(r -> r.path("uri").asString()).toList())
        .containsExactly(
            "docs://guide", "images://logo", "root://about", "root://notes", "text://hello");
    assertThat(resources.get(0).path("mimeType").asString()).isEqualTo("text/markdown");
    JsonNode templates =
        client.request("resources/templates/list", "{}").path("result").path("resourceTemplates");
    assertThat(templates.valueStream().map(r -> r.path("uriTemplate").asString()).toList())
        .containsExactly("files://{name}", "items://{id}/data", "notes://{topic}");
  }

  @Test
  void inlineResourcesOfTheRootFileAreListedAndReadLikeDiscoveredOnes() {
    JsonNode resources = client.request("resources/list", "{}").path("result").path("resources");
    JsonNode about = find(resources, "root://about");
    assertThat(about.path("name").asString()).isEqualTo("root://about"); // no name: its URI
    assertThat(about.path("mimeType").asString()).isEqualTo("text/markdown");
    JsonNode notes = find(resources, "root://notes");
    assertThat(notes.path("name").asString()).isEqualTo("root-notes");
    assertThat(notes.path("description").asString()).isEqualTo("Notes kept beside .svc.");

    JsonNode aboutContent =
        client
            .request("resources/read", "{\"uri\":\"root://about\"}")
            .path("result")
            .path("contents")
            .get(0);
    assertThat(aboutContent.path("text").asString()).isEqualTo("# About\nDeclared in .svc.");
    assertThat(aboutContent.path("mimeType").asString()).isEqualTo("text/markdown");
    // an inline `file` starts at the project directory
    JsonNode notesContent =
        client
            .request("resources/read", "{\"uri\":\"root://notes\"}")
            .path("result")
            .path("contents")
            .get(0);
    assertThat(notesContent.path("text").asString()).isEqualTo("Root notes\n");
    assertThat(notesContent.path("mimeType").asString()).isEqualTo("text/plain"); // from .txt
  }

  private static JsonNode find(JsonNode resources, String uri) {
    return resources
        .valueStream()
        .filter(r -> r.path("uri").asString().equals(uri))
        .findFirst()
        .orElseThrow(() -> new AssertionError(uri + " is not listed: " + resources));
  }

  @Test
  void textFilesAreTextAndBinaryFilesAreBlobs() {
    JsonNode guide =
        client
            .request("resources/read", "{\"uri\":\"docs://guide\"}")
            .path("result")
            .path("contents")
            .get(0);
    assertThat(guide.path("text").asString()).isEqualTo("# Guide\n");
    assertThat(guide.path("mimeType").asString()).isEqualTo("text/markdown");
    JsonNode logo =
        client
            .request("resources/read", "{\"uri\":\"images://logo\"}")
            .path("result")
            .path("contents")
            .get(0);
    assertThat(logo.path("mimeType").asString()).isEqualTo("image/png");
    assertThat(Base64.getDecoder().decode(logo.path("blob").asString())).hasSize(8);
    JsonNode inline =
        client
            .request("resources/read", "{\"uri\":\"text://hello\"}")
            .path("result")
            .path("contents")
            .get(0);
    assertThat(inline.path("text").asString()).isEqualTo("Hello there");
    assertThat(inline.path("mimeType").asString()).isEqualTo("text/plain; charset=utf-8");
  }

  @Test
  void templatesAreMatchedAndInterpolated() {
    JsonNode items =
        client
            .request("resources/read", "{\"uri\":\"items://123/data\"}")
            .path("result")
            .path("contents")
            .get(0);
    assertThat(items.path("text").asString()).isEqualTo("{\"id\": \"123\"}");
    assertThat(items.path("mimeType").asString()).isEqualTo("application/json");
    JsonNode file =
        client
            .request("resources/read", "{\"uri\":\"files://a\"}")
            .path("result")
            .path("contents")
            .get(0);
    assertThat(file.path("text").asString()).isEqualTo("File A\n");
    JsonNode notes =
        client
            .request("resources/read", "{\"uri\":\"notes://coffee%20beans\"}")
            .path("result")
            .path("contents")
            .get(0);
    assertThat(notes.path("text").asString()).isEqualTo("Notes about coffee beans");
  }

  @Test
  void aFileLargerThanTheCeilingOfOneResultIsRefusedUnreadAndTheServerGoesOn() throws Exception {
    long ceiling = dev.svc.connector.ResultMemory.process().ceilingBytes();
    Path huge = dir.resolve("app/resources/files/docs/huge.txt");
    try (java.io.RandomAccessFile file = new java.io.RandomAccessFile(huge.toFile(), "rw")) {
      file.setLength(ceiling + 1); // sparse: no disk, and nothing to read before the refusal
    }
    try {
      JsonNode error = client.request("resources/read", "{\"uri\":\"files://huge\"}").path("error");

      assertThat(error.path("code").asInt()).isEqualTo(-32603);
      assertThat(error.path("message").asString())
          .startsWith("Internal error: resource file huge.txt holds ")
          .contains("svc serves as one result; split the file, or serve it as a tool");
      assertThat(error.path("data").path("uri").asString()).isEqualTo("files://huge");
      assertThat(
              client
                  .request("resources/read", "{\"uri\":\"files://a\"}")
                  .path("result")
                  .path("contents")
                  .get(0)
                  .path("text")
                  .asString())
          .isEqualTo("File A\n");
    } finally {
      Files.delete(huge);
    }
  }

  @Test
  void pathTraversalThroughATemplateIsRejected() {
    JsonNode error =
        client.request("resources/read", "{\"uri\":\"files://..%2F..%2F.svc\"}").path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32602);
  }

  @Test
  void malformedPercentEscapesAndControlCharactersInATemplateUriAreInvalidParams() {
    for (String uri :
        java.util.List.of(
            "files://%zz",
            "files://%", "files://a%2", "files://%00", "notes://%zz", "items://%/data")) {
      JsonNode error = client.request("resources/read", "{\"uri\":\"" + uri + "\"}").path("error");
      assertThat(error.path("code").asInt()).as(uri).isEqualTo(-32602);
      assertThat(error.path("message").asString()).as(uri).doesNotContain("internal");
    }
  }

  @Test
  void unknownUrisAreResourceNotFound() {
    JsonNode error = client.request("resources/read", "{\"uri\":\"docs://missing\"}").path("error");
    assertThat(error.path("code").asInt()).isEqualTo(-32002);
    assertThat(error.path("data").path("uri").asString()).isEqualTo("docs://missing");
  }

  @Test
  void completionFiltersByPrefixCaseInsensitively() {
    JsonNode prompt =
        client
            .request(
                "completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"review\"},\"argument\":{\"name\":\"language\",\"value\":\"JA\"}}")
            .path("result")
            .path("completion");
    assertThat(prompt.path("values").toString()).isEqualTo("[\"java\",\"javascript\"]");
    assertThat(prompt.path("total").asInt()).isEqualTo(2);
    assertThat(prompt.path("hasMore").asBoolean()).isFalse();
    JsonNode template =
        client
            .request(
                "completion/complete",
                "{\"ref\":{\"type\":\"ref/resource\",\"uri\":\"notes://{topic}\"},\"argument\":{\"name\":\"topic\",\"value\":\"c\"}}")
            .path("result")
            .path("completion");
    assertThat(template.path("values").toString()).isEqualTo("[\"Coffee\",\"cocoa\"]");
    JsonNode all =
        client
            .request(
                "completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"review\"},\"argument\":{\"name\":\"focus\",\"value\":\"\"}}")
            .path("result")
            .path("completion");
    assertThat(all.path("values").size()).isZero();
    JsonNode notText =
        client
            .request(
                "completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"review\"},\"argument\":{\"name\":\"language\",\"value\":{\"a\":1}}}")
            .path("error");
    assertThat(notText.path("code").asInt()).isEqualTo(-32602);
    assertThat(notText.path("message").asString()).contains("`argument.value` must be a string");
  }

  @Test
  void subscribeAndUnsubscribeAnswerEmptyResults() {
    assertThat(
            client
                .request("resources/subscribe", "{\"uri\":\"docs://guide\"}")
                .path("result")
                .toString())
        .isEqualTo("{}");
    assertThat(
            client
                .request("resources/unsubscribe", "{\"uri\":\"docs://guide\"}")
                .path("result")
                .toString())
        .isEqualTo("{}");
  }

  @Test
  void aSessionSubscribesOnlyToUrisTheProjectServesAndToAtMostAHundred() {
    JsonNode unknown =
        client.request("resources/subscribe", "{\"uri\":\"nope://x\"}").path("error");
    assertThat(unknown.path("code").asInt()).isEqualTo(-32002);
    assertThat(unknown.path("data").path("uri").asString()).isEqualTo("nope://x");

    for (int i = 0; i < 100; i++) {
      assertThat(
              client
                  .request("resources/subscribe", "{\"uri\":\"notes://topic-" + i + "\"}")
                  .has("result"))
          .isTrue();
    }
    JsonNode more =
        client.request("resources/subscribe", "{\"uri\":\"notes://topic-100\"}").path("error");
    assertThat(more.path("code").asInt()).isEqualTo(-32602);
    assertThat(more.path("message").asString())
        .isEqualTo("a session may subscribe to at most 100 resources: unsubscribe from one first");
    assertThat(client.request("resources/subscribe", "{\"uri\":\"notes://topic-7\"}").has("result"))
        .as("the same subscription again is no new one")
        .isTrue();

    JsonNode tooLong =
        client
            .request("resources/subscribe", "{\"uri\":\"notes://" + "x".repeat(5000) + "\"}")
            .path("error");
    assertThat(tooLong.path("code").asInt()).isEqualTo(-32002);
  }
}

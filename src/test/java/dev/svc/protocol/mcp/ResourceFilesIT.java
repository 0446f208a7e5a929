package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.testing.McpHttpClient;
import dev.svc.testing.RunningProject;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * What a file template serves under {@code svc start}: the files {@code svc build} would embed, and
 * nothing a link or a dot file would let out. Before, a link in the folder to {@code /etc} or to a
 * file elsewhere was followed, and a template rooted at the project served {@code .env}.
 */
class ResourceFilesIT {
  @TempDir static Path dir;
  @TempDir static Path outside;
  static Instance instance;
  static McpHttpClient client;

  @BeforeAll
  static void start() throws Exception {
    instance =
        RunningProject.start(
            dir,
            """
            == .svc
            name: files
            resource_templates:
              - name: project
                uri_template: "proj://{+name}"
                file_template: "{{ name }}"
            == .env
            SHOP_DB_PASSWORD=hunter2
            == app/resources/raw/config.terse
            name: raw
            uri_template: "raw://files/{+path}"
            file_template: "files/{{ path }}"
            == app/resources/raw/files/inside.txt
            inside
            == app/resources/raw/files/sub/.hidden
            hidden
            == app/prompts/embed.terse
            arguments:
              uri: {required: true}
            messages:
              - role: user
                resource: "{{ uri }}"
            """);
    Files.writeString(outside.resolve("secret.txt"), "outside secret");
    Path files = dir.resolve("app/resources/raw/files");
    Files.createSymbolicLink(files.resolve("link.txt"), outside.resolve("secret.txt"));
    Files.createSymbolicLink(files.resolve("etcdir"), Path.of("/etc"));
    Files.createSymbolicLink(files.resolve("alias.txt"), files.resolve("inside.txt"));
    client = new McpHttpClient(instance.baseUrl());
    client.initialize();
  }

  @AfterAll
  static void stop() {
    if (instance != null) {
      instance.close();
    }
  }

  private static JsonNode read(String uri) {
    return client.request("resources/read", "{\"uri\":\"" + uri + "\"}");
  }

  @Test
  void aFileInTheFolderIsServedAndSoIsALinkThatStaysInIt() {
    assertThat(read("raw://files/inside.txt").path("result").toString()).contains("inside");
    assertThat(read("raw://files/alias.txt").path("result").toString()).contains("inside");
  }

  @Test
  void aLinkLeadingOutOfTheFolderIsNotFollowed() {
    for (String uri : new String[] {"raw://files/link.txt", "raw://files/etcdir/hostname"}) {
      JsonNode reply = read(uri);
      assertThat(reply.has("result")).as(reply.toString()).isFalse();
      assertThat(reply.toString()).doesNotContain("outside secret");
    }
  }

  @Test
  void dotFilesAndConfigFilesAreNotServedAtAnyDepth() {
    for (String uri :
        new String[] {
          "proj://.env",
          "proj://.svc",
          "raw://files/sub/.hidden",
          "raw://files/sub/config.terse",
          "proj://app/resources/raw/config.terse"
        }) {
      JsonNode reply = read(uri);
      assertThat(reply.has("result")).as(uri + " " + reply).isFalse();
      assertThat(reply.toString()).doesNotContain("hunter2");
    }
  }

  /**
   * A URI whose value holds a character no file name can hold (NUL) is the client's mistake, {@code
   * -32602}, for reads and for a prompt that embeds the resource alike. (A lone surrogate was the
   * other such character: the file system's exception reached the client as {@code -32603} and the
   * log as an error; it is U+FFFD now, below.)
   */
  @Test
  void aValueNoFileNameCanHoldIsTheClientsError() {
    for (String uri : new String[] {"raw://files/a\\u0000.txt", "raw://files/inside.txt\\u0000"}) {
      JsonNode read = read(uri);
      assertThat(read.path("error").path("code").asInt()).as(read.toString()).isEqualTo(-32602);
      assertThat(read.path("error").path("message").asString())
          .isEqualTo("the URI holds an escaped control character");
      JsonNode prompt =
          client.request(
              "prompts/get", "{\"name\":\"embed\",\"arguments\":{\"uri\":\"" + uri + "\"}}");
      assertThat(prompt.path("error").path("code").asInt()).as(prompt.toString()).isEqualTo(-32602);
    }
  }

  /**
   * A lone surrogate (U+D800 with no partner, which a JSON escape can write) becomes U+FFFD as svc
   * reads the request, so such a URI names a file that is not there: {@code -32002}, never an
   * internal error.
   */
  @Test
  void aLoneSurrogateInAValueNamesAFileThatIsNotThere() {
    for (String uri : new String[] {"raw://files/a\\ud800.txt", "raw://files/inside.txt\\udc00"}) {
      JsonNode read = read(uri);
      assertThat(read.path("error").path("code").asInt()).as(read.toString()).isEqualTo(-32002);
      assertThat(read.toString()).contains("\uFFFD");
    }
  }
}

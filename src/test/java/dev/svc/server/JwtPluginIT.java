package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.cli.Instance;
import dev.svc.json.Json;
import dev.svc.testing.KeycloakFixture;
import dev.svc.testing.McpHttpClient.Reply;
import dev.svc.testing.RunningProject;
import dev.svc.testing.StatelessMcpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The built-in {@code jwt} auth plugin and {@code {{ auth.claims.<name> }}} against a real OpenID
 * provider: Keycloak issues tokens by the client-credentials grant over HTTP, and each tool call
 * sees the rows of the token's subject only. Once per tool (no {@code server.auth}), and behind
 * {@code server.auth}, where the plugin checks the scopes of the token the endpoint verified.
 */
class JwtPluginIT {
  private static final String SUBJECT_ROWS =
      """
      description: The caller's orders.
      use: db
      statement: SELECT item FROM orders WHERE owner = {{ auth.claims.sub }} ORDER BY item
      """;

  @TempDir static Path perToolDir;
  @TempDir static Path serverAuthDir;
  static KeycloakFixture keycloak;
  static String alice;
  static String bob;
  static String aliceSubject;
  static String bobSubject;

  @BeforeAll
  static void tokens() {
    keycloak = KeycloakFixture.get();
    alice = keycloak.token("svc-client", "svc-secret");
    bob = keycloak.token("second-client", "second-secret");
    aliceSubject = claims(alice).path("sub").asString();
    bobSubject = claims(bob).path("sub").asString();
    assertThat(aliceSubject).isNotBlank().isNotEqualTo(bobSubject);
  }

  /** What a client may read of its own token: the payload is not secret from its holder. */
  private static JsonNode claims(String token) {
    String payload = token.split("\\.")[1];
    return Json.MAPPER.readTree(
        new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8));
  }

  /** A SQLite database with two orders of each client and one of somebody else. */
  private static void orders(Path dir) {
    try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("shop.db"))) {
      db.createStatement().execute("CREATE TABLE orders (owner TEXT, item TEXT)");
      try (PreparedStatement insert = db.prepareStatement("INSERT INTO orders VALUES (?, ?)")) {
        for (String[] row :
            new String[][] {
              {aliceSubject, "a-apples"},
              {aliceSubject, "a-pears"},
              {bobSubject, "b-bread"},
              {bobSubject, "b-butter"},
              {"somebody-else", "x-secret"}
            }) {
          insert.setString(1, row[0]);
          insert.setString(2, row[1]);
          insert.executeUpdate();
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final String DB =
      """
      == app/adapters/db.terse
      connector: sqlite
      connection_string: "file:./shop.db"
      """;

  private static Reply call(String base, String token, String tool, String arguments) {
    StatelessMcpClient client = new StatelessMcpClient(base);
    if (token != null) {
      client.bearer(token);
    }
    return client.post("tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}");
  }

  private static String text(Reply reply) {
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    return reply.json().path("result").path("content").path(0).path("text").asString();
  }

  private static boolean isError(Reply reply) {
    return reply.json().path("result").path("isError").asBoolean(false);
  }

  /** Each tool verifies the token itself: no server.auth. */
  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class PerTool {
    final Path dir = perToolDir;
    Instance instance;
    String base;

    @BeforeAll
    void start() throws Exception {
      orders(dir);
      String jwt =
          """
          auth:
            plugin: jwt
            policy:
              issuer: "{{ env.OIDC_ISSUER }}"
              audience: https://svc.test/mcp
              scopes: profile
          """;
      Files.createDirectories(dir);
      instance =
          RunningProject.start(
              dir,
              "== .svc\nname: shop\nversion: \"1.0.0\"\n"
                  + DB
                  + "== app/tools/my_orders/config.terse\n"
                  + SUBJECT_ROWS
                  + "cache: {enabled: true, ttl: 60}\n"
                  + jwt
                  + "== app/tools/overridden/config.terse\n"
                  + SUBJECT_ROWS
                  + jwt
                  + "== app/tools/overridden/input.ts\n"
                  + "export default ({ inputs }) => ({ ...inputs, \"auth.claims.sub\": \""
                  + bobSubject
                  + "\" });\n"
                  + "== app/tools/unclaimed/config.terse\n"
                  + """
                  description: Needs a claim client tokens lack.
                  use: db
                  statement: SELECT item FROM orders WHERE owner = {{ auth.claims.no_such_claim }}
                  """
                  + jwt
                  + "== app/tools/whoami/config.terse\n"
                  + "description: Who calls, as scripts see it.\nhandler: handler.ts\n"
                  + jwt
                  + "== app/tools/whoami/handler.ts\n"
                  + """
                  export default ({ auth }) => ({
                    subject: auth.subject,
                    azp: auth.claims.azp,
                    scopes: auth.scopes,
                  });
                  """,
              Map.of("OIDC_ISSUER", keycloak.issuer()));
      base = instance.baseUrl();
    }

    @AfterAll
    void stop() {
      if (instance != null) {
        instance.close();
      }
    }

    @Test
    void aValidTokenSeesTheRowsOfItsSubjectOnlyAndTheCacheKeepsSubjectsApart() {
      Reply mine = call(base, alice, "my_orders", "{}");
      assertThat(isError(mine)).as(mine.body()).isFalse();
      assertThat(text(mine)).contains("a-apples", "a-pears").doesNotContain("b-", "x-secret");
      // the cached answer for alice is not bob's
      Reply his = call(base, bob, "my_orders", "{}");
      assertThat(text(his)).contains("b-bread", "b-butter").doesNotContain("a-", "x-secret");
      assertThat(text(call(base, alice, "my_orders", "{}"))).isEqualTo(text(mine));
    }

    @Test
    void anInputTransformCannotOverrideAClaim() {
      Reply mine = call(base, alice, "overridden", "{}");
      assertThat(isError(mine)).as(mine.body()).isFalse();
      assertThat(text(mine)).contains("a-apples").doesNotContain("b-");
    }

    @Test
    void aClaimTheTokenLacksFailsTheCall() {
      Reply reply = call(base, alice, "unclaimed", "{}");
      assertThat(isError(reply)).isTrue();
      assertThat(text(reply)).isEqualTo("the token carries no claim `no_such_claim`");
    }

    @Test
    void scriptsGetTheSubjectClaimsAndScopes() {
      Reply reply = call(base, alice, "whoami", "{}");
      assertThat(isError(reply)).as(reply.body()).isFalse();
      JsonNode seen = Json.MAPPER.readTree(text(reply));
      assertThat(seen.path("subject").asString()).isEqualTo(aliceSubject);
      assertThat(seen.path("azp").asString()).isEqualTo("svc-client");
      assertThat(seen.path("scopes").toString()).contains("\"profile\"");
    }

    @Test
    void badTokensAreToolErrorsThatNameTheReasonButNotTheToken() {
      String tampered = alice.substring(0, alice.length() - 4) + "AAAA";
      Map<String, String> expected =
          Map.of(
              "none",
              "authentication failed: this tool needs an OAuth access token: send it as"
                  + " `Authorization: Bearer <token>`",
              keycloak.token("other-client", "other-secret"),
              "authentication failed: the token is not for this server: its audience (aud) does"
                  + " not contain `https://svc.test/mcp`",
              keycloak.token("narrow-client", "narrow-secret"),
              "authentication failed: the access token lacks the scope `profile`",
              tampered,
              "authentication failed: the token's signature does not verify",
              "not-a-jwt",
              "authentication failed: the token is not a JWT");
      expected.forEach((token, message) -> {
        Reply reply = call(base, token.equals("none") ? null : token, "my_orders", "{}");
        assertThat(isError(reply)).as(reply.body()).isTrue();
        assertThat(text(reply)).isEqualTo(message);
        assertThat(reply.body()).doesNotContain(token.equals("none") ? "\u0000" : token);
      });
      Reply malformed =
          new StatelessMcpClient(base)
              .post(
                  "tools/call",
                  "{\"name\":\"my_orders\",\"arguments\":{}}",
                  "Authorization",
                  "Bearer two words");
      assertThat(text(malformed))
          .isEqualTo(
              "authentication failed: the Authorization header is malformed: write `Bearer"
                  + " <token>`");
    }
  }

  /** server.auth verifies the token; the plugin checks the tool's scopes against it. */
  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class BehindServerAuth {
    final Path dir = serverAuthDir;
    Instance instance;
    String base;

    @BeforeAll
    void start() {
      orders(dir);
      instance =
          RunningProject.start(
              dir,
              """
              == .svc
              name: shop
              version: "1.0.0"
              server:
                auth:
                  plugin: oauth
                  policy:
                    issuer: "{{ env.OIDC_ISSUER }}"
                    audience: https://svc.test/mcp
              """
                  + DB
                  + "== app/tools/my_orders/config.terse\n"
                  + SUBJECT_ROWS
                  + "== app/tools/profiled/config.terse\n"
                  + SUBJECT_ROWS
                  + "auth: {plugin: jwt, policy: {scopes: profile}}\n"
                  + "== app/tools/writers/config.terse\n"
                  + SUBJECT_ROWS
                  + "auth: {plugin: jwt, policy: {scopes: \"profile orders:write\"}}\n",
              Map.of("OIDC_ISSUER", keycloak.issuer()));
      base = instance.baseUrl();
    }

    @AfterAll
    void stop() {
      if (instance != null) {
        instance.close();
      }
    }

    @Test
    void claimsComeFromTheTokenTheEndpointVerified() {
      assertThat(text(call(base, alice, "my_orders", "{}")))
          .contains("a-apples")
          .doesNotContain("b-");
      assertThat(text(call(base, bob, "my_orders", "{}"))).contains("b-bread").doesNotContain("a-");
    }

    @Test
    void theToolsScopesAreCheckedAgainstTheVerifiedToken() {
      Reply allowed = call(base, alice, "profiled", "{}");
      assertThat(isError(allowed)).as(allowed.body()).isFalse();
      assertThat(text(allowed)).contains("a-apples");
      Reply narrow = call(base, keycloak.token("narrow-client", "narrow-secret"), "profiled", "{}");
      assertThat(isError(narrow)).as(narrow.body()).isTrue();
      assertThat(text(narrow))
          .isEqualTo("authentication failed: the access token lacks the scope `profile`");
      assertThat(text(call(base, alice, "writers", "{}")))
          .isEqualTo("authentication failed: the access token lacks the scope `orders:write`");
    }
  }
}

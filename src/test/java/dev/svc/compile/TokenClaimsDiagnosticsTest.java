package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The built-in {@code jwt} auth plugin's policy and the {@code {{ auth.claims.<name> }}}
 * placeholders of statements, each rule pinned to its exact output.
 */
class TokenClaimsDiagnosticsTest {
  @TempDir Path dir;

  static final String SQL =
      """
      == app/adapters/db.terse
      connector: postgres
      connection_string: postgresql://u@localhost:5432/shop
      """;

  static final String MONGO =
      """
      == app/adapters/db.terse
      connector: mongodb
      connection_string: mongodb://localhost:27017/shop
      """;

  static final String REDIS =
      """
      == app/adapters/db.terse
      connector: redis
      connection_string: redis://localhost:6379/0
      """;

  static final String JWT =
      """
      auth:
        plugin: jwt
        policy:
          issuer: https://auth.example.com/realms/shop
          audience: https://shop.example.com/mcp
          scopes: orders:read
      """;

  static final String SERVER_AUTH =
      """
      == .svc
      name: shop
      server:
        auth:
          plugin: oauth
          policy:
            issuer: https://auth.example.com/realms/shop
            audience: https://shop.example.com/mcp
      """;

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "claims with the tool's own jwt plugin compile, in SQL, MongoDB and Redis",
            SQL
                + """
                == app/tools/mine/config.terse
                description: My orders.
                use: db
                statement: >-
                  SELECT * FROM orders WHERE owner = {{ auth.claims.sub }}
                  AND region = '{{ auth.claims.address.region }}' ORDER BY id
                """
                + JWT,
            ""),
        argumentSet(
            "claims in MongoDB and Redis statements compile",
            MONGO
                + """
                == app/tools/mine/config.terse
                description: My orders.
                use: db
                statement: '{"database": "shop", "command": {"find": "orders", "filter": {"owner": {{ auth.claims.sub }}}}}'
                """
                + JWT
                + """
                == app/adapters/cache.terse
                connector: redis
                connection_string: redis://localhost:6379/0
                == app/tools/cart/config.terse
                description: My cart.
                use: cache
                statement: HGETALL "cart:{{ auth.claims.sub }}"
                """
                + JWT,
            ""),
        argumentSet(
            "claims without an auth block that verifies a token are an error at the statement",
            SQL
                + """
                == app/tools/mine/config.terse
                description: My orders.
                use: db
                statement: SELECT * FROM orders WHERE owner = {{ auth.claims.sub }} ORDER BY id
                == app/tools/keyed/config.terse
                description: My orders, by key.
                use: db
                statement: SELECT * FROM orders WHERE owner = {{ auth.claims.sub }} ORDER BY id
                auth:
                  plugin: api_key
                  policy: {value: secret}
                """,
            """
            app/tools/keyed/config.terse:3:12: error[claims-without-token]: the statement uses `{{ auth.claims.sub }}`, but no access token is verified for this tool (its `api_key` plugin verifies none)
              hint: add `auth: {plugin: jwt, policy: {issuer: …, audience: …}}` to the tool, or turn on `server.auth` in .svc
            app/tools/keyed/config.terse:6:19: warning[literal-secret]: the API key of tool `keyed` is written in the file: it would be in the repository and in the built artifact
              hint: write `value: "{{ env.MY_KEY }}"` and set the variable where svc runs (or in .env, kept out of version control), or leave it out and set SVC_API_KEY
            app/tools/mine/config.terse:3:12: error[claims-without-token]: the statement uses `{{ auth.claims.sub }}`, but no access token is verified for this tool
              hint: add `auth: {plugin: jwt, policy: {issuer: …, audience: …}}` to the tool, or turn on `server.auth` in .svc
            2 errors, 1 warning
            """),
        argumentSet(
            "with server.auth, claims need no auth block of the tool",
            SERVER_AUTH
                + SQL
                + """
                == app/tools/mine/config.terse
                description: My orders.
                use: db
                statement: SELECT * FROM orders WHERE owner = {{ auth.claims.sub }} ORDER BY id
                """,
            ""),
        argumentSet(
            "other auth forms are errors that point at auth.claims; the env hint stays",
            REDIS
                + """
                == app/tools/a/config.terse
                description: A.
                use: db
                statement: GET "k:{{ auth.subject }}"
                """
                + JWT
                + """
                == app/tools/b/config.terse
                description: B.
                use: db
                statement: GET "k:{{ auth.claims }}"
                """
                + JWT
                + """
                == app/tools/c/config.terse
                description: C.
                use: db
                statement: GET "k:{{ auth.claims.my-claim }}"
                """
                + JWT
                + """
                == app/tools/d/config.terse
                description: D.
                use: db
                statement: GET "k:{{ env.USER }}"
                """,
            """
            app/tools/a/config.terse:3:12: error[invalid-placeholder]: `{{ auth.subject }}` is not a claim placeholder
              hint: write `{{ auth.claims.<name> }}` with the claim's name (letters, digits, `_`; dots reach into nested objects), e.g. `{{ auth.claims.sub }}` for the subject
            app/tools/b/config.terse:3:12: error[invalid-placeholder]: `{{ auth.claims }}` is not a claim placeholder
              hint: write `{{ auth.claims.<name> }}` with the claim's name (letters, digits, `_`; dots reach into nested objects), e.g. `{{ auth.claims.sub }}` for the subject
            app/tools/c/config.terse:3:12: error[invalid-placeholder]: `{{ auth.claims.my-claim }}` is not a claim placeholder
              hint: write `{{ auth.claims.<name> }}` with the claim's name (letters, digits, `_`; dots reach into nested objects), e.g. `{{ auth.claims.sub }}` for the subject
            app/tools/d/config.terse:3:12: error[invalid-placeholder]: `{{ env.USER }}` is not an input placeholder
              hint: environment variables are not substituted in statements; keep secrets in the adapter's connection_string, or pass the value as an input
            4 errors, 0 warnings
            """),
        argumentSet(
            "an input transform cannot stand in for a claim: the statement still needs a token",
            SQL
                + """
                == app/tools/mine/config.terse
                description: My orders.
                use: db
                statement: SELECT * FROM orders WHERE owner = {{ auth.claims.sub }} ORDER BY id
                == app/tools/mine/input.ts
                export default ({ inputs }) => ({ ...inputs, "auth.claims.sub": "alice" });
                """,
            """
            app/tools/mine/config.terse:3:12: error[claims-without-token]: the statement uses `{{ auth.claims.sub }}`, but no access token is verified for this tool
              hint: add `auth: {plugin: jwt, policy: {issuer: …, audience: …}}` to the tool, or turn on `server.auth` in .svc
            1 error, 0 warnings
            """),
        argumentSet(
            "a jwt policy without issuer and audience is an error without server.auth",
            SQL
                + """
                == app/tools/mine/config.terse
                description: My orders.
                use: db
                statement: SELECT 1 AS one
                auth:
                  plugin: jwt
                  policy:
                    scope: orders:read
                """,
            """
            app/tools/mine/config.terse:5:11: error[missing-auth-policy]: the `jwt` plugin needs `policy.audience`
              hint: write `policy: {issuer: https://auth.example.com/realms/shop, audience: https://svc.example.com/mcp}` (the tokens' `iss` and a value of their `aud`), or turn on `server.auth` in .svc
            app/tools/mine/config.terse:5:11: error[missing-auth-policy]: the `jwt` plugin needs `policy.issuer`
              hint: write `policy: {issuer: https://auth.example.com/realms/shop, audience: https://svc.example.com/mcp}` (the tokens' `iss` and a value of their `aud`), or turn on `server.auth` in .svc
            app/tools/mine/config.terse:7:5: error[unknown-auth-policy-key]: the `jwt` plugin has no policy key `scope`
              hint: did you mean `scopes`?
            3 errors, 0 warnings
            """),
        argumentSet(
            "jwt policy values are checked: URLs, scopes",
            SQL
                + """
                == app/tools/mine/config.terse
                description: My orders.
                use: db
                statement: SELECT 1 AS one
                auth:
                  plugin: jwt
                  policy:
                    issuer: auth.example.com
                    audience: ""
                    scopes: "orders:read \\"x\\""
                    jwks_uri: http://auth.example.com/keys
                """,
            """
            app/tools/mine/config.terse:7:13: error[invalid-auth-url]: `policy.issuer` is not a usable URL: it must start with https://
              hint: write an absolute https URL, e.g. `https://auth.example.com/realms/shop`
            app/tools/mine/config.terse:8:15: error[invalid-auth-policy]: `policy.audience` is empty
            app/tools/mine/config.terse:9:13: error[invalid-auth-scope]: `"x"` is not a scope
              hint: write scopes separated by spaces, e.g. `scopes: "orders:read profile"`
            app/tools/mine/config.terse:10:15: warning[insecure-auth-url]: `policy.jwks_uri` uses plain http to another machine: keys travel in the clear
              hint: use https
            3 errors, 1 warning
            """),
        argumentSet(
            "behind server.auth, a jwt policy repeating its issuer is a warning, a different"
                + " audience an error",
            SERVER_AUTH
                + SQL
                + """
                == app/tools/mine/config.terse
                description: My orders.
                use: db
                statement: SELECT 1 AS one
                auth:
                  plugin: jwt
                  policy:
                    issuer: https://auth.example.com/realms/shop
                    audience: https://admin.example.com
                    scopes: orders:read
                """,
            """
            app/tools/mine/config.terse:7:13: warning[ignored-auth-policy]: `policy.issuer` is ignored: server.auth verified the token
              hint: remove it; behind server.auth the `jwt` plugin checks only `scopes`
            app/tools/mine/config.terse:8:15: error[conflicting-auth-policy]: `policy.audience` differs from server.auth's, which verifies every token: the tool would never see a token this policy asks for
              hint: remove it (behind server.auth the `jwt` plugin checks only `scopes`), or serve this tool from a project without server.auth
            1 error, 1 warning
            """),
        argumentSet(
            "behind server.auth, a jwt policy with only scopes compiles",
            SERVER_AUTH
                + SQL
                + """
                == app/tools/mine/config.terse
                description: My orders.
                use: db
                statement: SELECT 1 AS one
                auth:
                  plugin: jwt
                  policy: {scopes: orders:read}
                """,
            ""));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}

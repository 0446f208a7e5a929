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

/** Rules of the root file {@code .svc} and of discovery, each pinned to its exact output. */
class RootDiagnosticsTest {
  @TempDir Path dir;

  /** A valid tool, so that a case is about the root file only. */
  static final String HELLO =
      """
      == app/tools/hello/config.terse
      description: Says hello.
      handler: handler.ts
      == app/tools/hello/handler.ts
      export default () => "hello";
      """;

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "a root file without `name` is an error",
            """
            == .svc
            version: "1.0"
            """
                + HELLO,
            """
            .svc:1:1: error[missing-field]: `name` is missing from the root configuration
              hint: add `name:` (service id: lower-case letters, digits, `_` and `-`)
            1 error, 0 warnings
            """),
        argumentSet(
            "a service name must be lower-case",
            """
            == .svc
            name: My Shop
            """
                + HELLO,
            """
            .svc:1:7: error[invalid-name]: `name` is `My Shop`; it must match ^[a-z][a-z0-9_-]*$
              hint: start with a lower-case letter; use a-z, 0-9, `_` and `-`
            1 error, 0 warnings
            """),
        argumentSet(
            "a misspelt root key is an error with a did-you-mean, not a silent default",
            """
            == .svc
            name: shop
            sever:
              port: 9000
            """
                + HELLO,
            """
            .svc:2:1: error[unknown-key]: unknown key `sever` in the root configuration
              hint: did you mean `server`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a root key two edits away from a known one is an error too",
            """
            == .svc
            name: shop
            verison: "1.0"
            agnets:
              directory: agents
            """
                + HELLO,
            """
            .svc:2:1: error[unknown-key]: unknown key `verison` in the root configuration
              hint: did you mean `version`?
            .svc:3:1: error[unknown-key]: unknown key `agnets` in the root configuration
              hint: did you mean `agents`?
            2 errors, 0 warnings
            """),
        argumentSet(
            "an unknown root key that is not close to a known one stays a warning",
            """
            == .svc
            name: shop
            x-deploy: fly
            port: 9000
            """
                + HELLO,
            """
            .svc:2:1: warning[unknown-key]: unknown key `x-deploy` in the root configuration (ignored)
              hint: known keys: name, version, root, tools, adapters, prompts, resources, resource_templates, agents, scripts, server, build
            .svc:3:1: warning[unknown-key]: unknown key `port` in the root configuration (ignored)
              hint: `port` belongs under `server:`
            0 errors, 2 warnings
            """),
        argumentSet(
            "a server key asking for TLS is an error: svc would serve plain text to it",
            """
            == .svc
            name: shop
            server:
              tls:
                cert: certs/cert.pem
                key: certs/key.pem
              https: true
            """
                + HELLO,
            """
            .svc:3:3: error[unknown-key]: unknown key `tls` in the root configuration `server`
              hint: svc serves plain HTTP only: terminate TLS in a proxy or load balancer in front of it (docs/deploy.md, "TLS")
            .svc:6:3: error[unknown-key]: unknown key `https` in the root configuration `server`
              hint: svc serves plain HTTP only: terminate TLS in a proxy or load balancer in front of it (docs/deploy.md, "TLS")
            2 errors, 0 warnings
            """),
        argumentSet(
            "an unknown key in a root section is a warning too",
            """
            == .svc
            name: shop
            tools:
              directroy: tools
            """
                + HELLO,
            """
            .svc:3:3: warning[unknown-key]: unknown key `directroy` in the root configuration `tools` (ignored)
              hint: did you mean `directory`?
            0 errors, 1 warning
            """),
        argumentSet(
            "an unknown key in the root's global cache is a warning, as everywhere in the root file",
            """
            == .svc
            name: shop
            tools:
              cache:
                enabled: true
                ttel: 60
            """
                + HELLO,
            """
            .svc:5:5: warning[unknown-key]: unknown key `ttel` in the root configuration `tools.cache` (ignored)
              hint: did you mean `ttl`?
            0 errors, 1 warning
            """),
        argumentSet(
            "a log level above 4 is rejected",
            """
            == .svc
            name: shop
            server:
              log_level: 7
            """
                + HELLO,
            """
            .svc:3:14: error[invalid-log-level]: `log_level` is 7; it must be between 1 and 4
            1 error, 0 warnings
            """),
        argumentSet(
            "global result caps must be whole numbers of zero or more",
            """
            == .svc
            name: shop
            tools:
              max_rows: lots
              max_bytes: -5
            """
                + HELLO,
            """
            .svc:3:13: error[invalid-type]: `max_rows` must be an integer, found a string
            .svc:4:14: error[invalid-value]: `max_bytes` is -5; it must be at least 0
            2 errors, 0 warnings
            """),
        argumentSet(
            "server limits out of their ranges are all reported",
            """
            == .svc
            name: shop
            server:
              limits:
                header_timeout: 0
                connections_per_client: -1
                max_body_mb: 4096
                spare: 1
            """
                + HELLO,
            """
            .svc:4:21: error[invalid-server-limit]: `header_timeout` is 0; it must be between 1 and 3600
            .svc:5:29: error[invalid-server-limit]: `connections_per_client` is -1; it must be between 0 and 1000000
            .svc:6:18: error[invalid-server-limit]: `max_body_mb` is 4096; it must be between 1 and 1024
            .svc:7:5: warning[unknown-key]: unknown key `spare` in the root configuration `server.limits` (ignored)
              hint: known keys: max_body_mb, header_timeout, body_timeout, connections_per_client, drain_timeout, drain_delay
            3 errors, 1 warning
            """),
        argumentSet(
            "integers too large for any range are out of range, not of the wrong type",
            """
            == .svc
            name: shop
            server:
              limits:
                header_timeout: 99999999999999999999
                connections_per_client: -99999999999999999999
            tools:
              search:
                limit: 123456789012345678901234567890
            """
                + HELLO,
            """
            .svc:4:21: error[invalid-server-limit]: `header_timeout` is 99999999999999999999; it must be between 1 and 3600
            .svc:5:29: error[invalid-server-limit]: `connections_per_client` is -99999999999999999999; it must be between 0 and 1000000
            .svc:8:12: error[invalid-value]: `limit` is 123456789012345678901234567890; it must be at least 1
            3 errors, 0 warnings
            """),
        argumentSet(
            "a push-notification network that is not an address or CIDR is rejected",
            """
            == .svc
            name: shop
            agents:
              push_notifications:
                allow_private_networks: true
                allowed_networks: [10.20.0.0/16, "fd00::/8", 127.0.0.1, hooks.internal, 10.0.0.0/33]
            """
                + HELLO,
            """
            .svc:5:61: error[invalid-network]: `hooks.internal` in `agents.push_notifications.allowed_networks` is not an IP network
              hint: write an address or a network in CIDR notation, e.g. `10.20.0.0/16` or `fd00::/8` (host names are not accepted)
            .svc:5:77: error[invalid-network]: `10.0.0.0/33` in `agents.push_notifications.allowed_networks` is not an IP network
              hint: write an address or a network in CIDR notation, e.g. `10.20.0.0/16` or `fd00::/8` (host names are not accepted)
            2 errors, 0 warnings
            """),
        argumentSet(
            "a scripts.fetch network that is not an address or CIDR is rejected",
            """
            == .svc
            name: shop
            scripts:
              fetch:
                allow_private_networks: false
                allowed_networks: [10.20.0.0/16, api.internal, "fd00::/129"]
            """
                + HELLO,
            """
            .svc:5:38: error[invalid-network]: `api.internal` in `scripts.fetch.allowed_networks` is not an IP network
              hint: write an address or a network in CIDR notation, e.g. `10.20.0.0/16` or `fd00::/8` (host names are not accepted)
            .svc:5:52: error[invalid-network]: `fd00::/129` in `scripts.fetch.allowed_networks` is not an IP network
              hint: write an address or a network in CIDR notation, e.g. `10.20.0.0/16` or `fd00::/8` (host names are not accepted)
            2 errors, 0 warnings
            """),
        argumentSet(
            "the task store must name a postgres or redis adapter",
            """
            == .svc
            name: shop
            agents:
              tasks:
                store: stat
                lease_seconds: 0
            == app/adapters/state.terse
            connector: redis
            connection_string: redis://127.0.0.1:6379/0
            """
                + HELLO,
            """
            .svc:4:12: error[unknown-adapter]: `agents.tasks.store` names no adapter: `stat`
              hint: did you mean `state`?
            .svc:5:20: error[invalid-value]: `lease_seconds` is 0; it must be between 1 and 3600
            2 errors, 0 warnings
            """),
        argumentSet(
            "the task run limits have ranges",
            """
            == .svc
            name: shop
            agents:
              tasks:
                max_running: 0
                max_waiting: -1
            """
                + HELLO,
            """
            .svc:4:18: error[invalid-value]: `max_running` is 0; it must be between 1 and 10000
            .svc:5:18: error[invalid-value]: `max_waiting` is -1; it must be between 0 and 100000
            2 errors, 0 warnings
            """),
        argumentSet(
            "a task store on a sqlite adapter is rejected",
            """
            == .svc
            name: shop
            agents:
              tasks:
                store: local
            == app/adapters/local.terse
            connector: sqlite
            connection_string: ":memory:"
            """
                + HELLO,
            """
            .svc:4:12: error[unsupported-task-store]: adapter `local` is a sqlite adapter; `agents.tasks.store` needs a postgres or redis one
              hint: name a postgres or redis adapter, or remove `store` to keep tasks in memory
            1 error, 0 warnings
            """),
        argumentSet(
            "a log level below 1 is rejected",
            """
            == .svc
            name: shop
            server:
              log_level: 0
            """
                + HELLO,
            """
            .svc:3:14: error[invalid-log-level]: `log_level` is 0; it must be between 1 and 4
            1 error, 0 warnings
            """),
        argumentSet(
            "a log level written as a string is the wrong type",
            """
            == .svc
            name: shop
            server:
              log_level: "3"
            """
                + HELLO,
            """
            .svc:3:14: error[invalid-type]: `log_level` must be an integer, found a string
            1 error, 0 warnings
            """),
        argumentSet(
            "a port above 65535 is rejected",
            """
            == .svc
            name: shop
            server:
              port: 70000
            """
                + HELLO,
            """
            .svc:3:9: error[invalid-port]: `server.port` is `70000`; it must be a number from 0 to 65535
              hint: remove it to use --port, env PORT or 8080
            1 error, 0 warnings
            """),
        argumentSet(
            "a port that is not a number is rejected",
            """
            == .svc
            name: shop
            server:
              port: http
            """
                + HELLO,
            """
            .svc:3:9: error[invalid-port]: `server.port` is `http`; it must be a number from 0 to 65535
              hint: remove it to use --port, env PORT or 8080
            1 error, 0 warnings
            """),
        argumentSet(
            "a boolean setting written as a word is the wrong type",
            """
            == .svc
            name: shop
            build:
              clean_dir: "yes"
            """
                + HELLO,
            """
            .svc:3:14: error[invalid-type]: `clean_dir` must be `true` or `false`, found a string
            1 error, 0 warnings
            """),
        argumentSet(
            "a search limit must be at least 1",
            """
            == .svc
            name: shop
            tools:
              search:
                limit: 0
            """
                + HELLO,
            """
            .svc:4:12: error[invalid-value]: `limit` is 0; it must be at least 1
            1 error, 0 warnings
            """),
        argumentSet(
            "`inherit` is not a tool access mode of the root",
            """
            == .svc
            name: shop
            agents:
              tool_access:
                mode: inherit
            """
                + HELLO,
            """
            .svc:4:11: error[inherit-at-root]: `inherit` is only valid on agents: the root sets what they inherit
              hint: use `allow_all`, `allow_none` or `allow_list` here
            1 error, 0 warnings
            """),
        argumentSet(
            "the root's `allow_list` needs tools",
            """
            == .svc
            name: shop
            agents:
              tool_access:
                mode: allow_list
            """
                + HELLO,
            """
            .svc:4:11: error[missing-tool-list]: mode `allow_list` needs a non-empty `tools` list
              hint: add `tools: [tool_a, tool_b]`, or use `allow_none`
            1 error, 0 warnings
            """),
        argumentSet(
            "the root's `allow_list` may only name existing tools",
            """
            == .svc
            name: shop
            agents:
              tool_access:
                mode: allow_list
                tools: [hello, helo]
            """
                + HELLO,
            """
            .svc:5:20: error[unknown-tool]: no tool is named `helo`
              hint: did you mean `hello`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a project with nothing to serve is invalid",
            """
            == .svc
            name: shop
            """,
            """
            .svc:1:1: error[empty-project]: the project defines no tools, prompts, resources or agents
              hint: add a tool in app/tools/<name>/config.terse (`svc init` writes an example)
            1 error, 0 warnings
            """),
        argumentSet(
            "a directory override naming a missing directory is a warning",
            """
            == .svc
            name: shop
            prompts:
              directory: missing
            """
                + HELLO,
            """
            .svc:3:14: warning[missing-directory]: directory `app/missing` does not exist; nothing is discovered there
            0 errors, 1 warning
            """),
        argumentSet(
            "a missing `root` directory is a warning, and then nothing is found",
            """
            == .svc
            name: shop
            root: src
            """
                + HELLO,
            """
            .svc:1:1: error[empty-project]: the project defines no tools, prompts, resources or agents
              hint: add a tool in src/tools/<name>/config.terse (`svc init` writes an example)
            .svc:2:7: warning[missing-directory]: directory `src` does not exist; nothing is discovered there
            1 error, 1 warning
            """),
        argumentSet(
            "a tool directory without config.terse is a warning",
            HELLO
                + """
                == app/tools/draft/notes.md
                Not a tool yet.
                """,
            """
            app/tools/draft: warning[missing-config]: directory `app/tools/draft` has no config.terse, so it is not a tool
              hint: add config.terse or move the directory out of app/tools
            0 errors, 1 warning
            """),
        argumentSet(
            "a definition file directly in the tools directory is a warning",
            HELLO
                + """
                == app/tools/stray.terse
                description: Misplaced.
                """,
            """
            app/tools/stray.terse: warning[misplaced-file]: a tool is a directory holding config.terse; this file is ignored
              hint: move it to app/tools/stray/config.terse
            0 errors, 1 warning
            """),
        argumentSet(
            "`prompts` must be a mapping or a list",
            """
            == .svc
            name: shop
            prompts: prompts
            """
                + HELLO,
            """
            .svc:2:10: error[invalid-type]: `prompts` must be a mapping or a list, found a string
            1 error, 0 warnings
            """),
        argumentSet(
            "server.auth needs an issuer and an audience, and knows only the oauth plugin",
            """
            == .svc
            name: shop
            server:
              auth:
                plugin: oidc
                policy:
                  scopes: [mcp]
            """
                + HELLO,
            """
            .svc:4:13: error[unknown-server-auth-plugin]: `plugin` is `oidc`, which is not supported
              hint: use one of: oauth
            .svc:6:7: error[missing-field]: `audience` is missing from the root configuration `server.auth.policy`
              hint: add `audience:` (what the tokens' `aud` must contain: this server's identifier (RFC 8707); `{{ env.NAME }}` allowed)
            .svc:6:7: error[missing-field]: `issuer` is missing from the root configuration `server.auth.policy`
              hint: add `issuer:` (the authorization server's issuer URL (the tokens' `iss`); `{{ env.NAME }}` allowed)
            3 errors, 0 warnings
            """),
        argumentSet(
            "server.auth URLs must be URLs, scopes must be scope tokens, and keys are checked",
            """
            == .svc
            name: shop
            server:
              auth:
                plugin: oauth
                policy:
                  issuer: auth.example.com
                  audiance: https://shop.example.com/mcp
                  audience: https://shop.example.com/mcp
                  scopes: ["mcp tools", offline_access]
                  jwks_uri: http://auth.example.com/keys
            """
                + HELLO,
            """
            .svc:6:15: error[invalid-auth-url]: `server.auth.policy.issuer` is not a usable URL: it must start with https://
              hint: write an absolute https URL, e.g. `https://auth.example.com/realms/shop`
            .svc:7:7: error[unknown-key]: unknown key `audiance` in the root configuration `server.auth.policy`
              hint: did you mean `audience`?
            .svc:9:16: error[invalid-auth-scope]: `mcp tools` is not a scope
              hint: a scope is one word of printable ASCII without spaces, quotes or backslashes, e.g. `mcp:tools`
            .svc:9:29: warning[offline-access-scope]: `offline_access` is not a resource's scope; tokens are not required to carry it
              hint: remove it: MCP 2026-07-28 says servers should not ask for it
            .svc:10:17: warning[insecure-auth-url]: `server.auth.policy.jwks_uri` uses plain http to another machine: http://auth.example.com/keys
              hint: use https: tokens and keys must not travel in the clear
            3 errors, 2 warnings
            """),
        argumentSet(
            "server.auth introspection needs a client id and a secret from the environment",
            """
            == .svc
            name: shop
            server:
              auth:
                plugin: oauth
                policy:
                  issuer: https://auth.example.com
                  audience: https://shop.example.com/mcp
                  introspection:
                    client_secret: s3cr3t
                    endpoint: auth.example.com/introspect
                    tokens: some
                    cache_seconds: 7200
            """
                + HELLO,
            """
            .svc:9:9: error[missing-field]: `client_id` is missing from the root configuration `server.auth.policy.introspection`
              hint: add `client_id:` (svc's client at the authorization server; `{{ env.NAME }}` allowed)
            .svc:9:24: error[literal-client-secret]: `server.auth.policy.introspection.client_secret` is written in the file; it must come from the environment
              hint: write `client_secret: "{{ env.INTROSPECTION_CLIENT_SECRET }}"` and set the variable where svc runs (or in .env, kept out of version control)
            .svc:10:19: error[invalid-auth-url]: `server.auth.policy.introspection.endpoint` is not a usable URL: it must start with https://
              hint: write an absolute https URL, e.g. `https://auth.example.com/realms/shop`
            .svc:11:17: error[invalid-value]: `tokens` is `some`, which is not supported
              hint: use one of: opaque, all
            .svc:12:24: error[invalid-value]: `cache_seconds` is 7200; it must be between 0 and 3600
            5 errors, 0 warnings
            """),
        argumentSet(
            "server.auth introspection with an empty client id and a secret from the environment",
            """
            == .svc
            name: shop
            server:
              auth:
                plugin: oauth
                policy:
                  issuer: https://auth.example.com
                  audience: https://shop.example.com/mcp
                  introspection:
                    client_id: " "
                    client_secret: "{{ env.SECRET }}"
                    endpoint: http://auth.example.com/introspect
            """
                + HELLO,
            """
            .svc:9:20: error[missing-field]: `server.auth.policy.introspection.client_id` is empty
              hint: write the client id svc has at the authorization server
            .svc:11:19: warning[insecure-auth-url]: `server.auth.policy.introspection.endpoint` uses plain http to another machine: http://auth.example.com/introspect
              hint: use https: tokens and keys must not travel in the clear
            1 error, 1 warning
            """));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}

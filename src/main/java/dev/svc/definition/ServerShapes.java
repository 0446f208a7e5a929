package dev.svc.definition;

import static dev.svc.definition.Field.optional;
import static dev.svc.definition.Field.required;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The root file's {@code server} section: HTTP settings, the metrics endpoint, the limits that
 * protect the server and the audit trail. Part of {@link Shapes}, kept apart for its length.
 */
final class ServerShapes {
  private ServerShapes() {}

  /** {@code server.auth.policy.introspection}. */
  private static final Shape INTROSPECTION =
      strict(
          "server-auth-introspection",
          "Ask the issuer about tokens that are not JWTs (OAuth 2.0 Token Introspection, RFC"
              + " 7662).",
          required(
              "client_id",
              FieldType.text(),
              "svc's client at the authorization server; `{{ env.NAME }}` allowed."),
          required(
              "client_secret",
              FieldType.text(),
              "Its secret, from the environment: `{{ env.NAME }}` (a literal secret is an"
                  + " error)."),
          optional(
              "endpoint",
              FieldType.text(),
              "The introspection endpoint, when not discovered from"
                  + " `{issuer}/.well-known/openid-configuration`."),
          optional(
              "tokens",
              FieldType.choice("opaque", "all"),
              "`opaque` (default): introspect tokens that are not JWTs, verify JWTs here; `all`:"
                  + " introspect JWTs too, so a revoked JWT is refused within `cache_seconds`."),
          optional(
              "cache_seconds",
              new FieldType.Int(0, 3600),
              "Seconds an active answer is trusted, never past the token's `exp` (default 60;"
                  + " 0: ask on every request). A revoked token is accepted for at most this"
                  + " long."));

  /**
   * Keys that ask the server for TLS. svc serves plain HTTP only, so ignoring one of these with a
   * warning, as other unknown keys of the root file are, would serve plain text to an author who
   * asked for TLS, on every address they bind.
   */
  private static final Set<String> TLS_KEYS =
      Set.of("tls", "ssl", "https", "cert", "certificate", "keystore");

  /** The hint for an unknown {@code server} key that asks for TLS, which svc does not serve. */
  static Optional<String> tlsNotServed(String key) {
    return TLS_KEYS.contains(key)
        ? Optional.of(
            "svc serves plain HTTP only: terminate TLS in a proxy or load balancer in front of it"
                + " (docs/deploy.md, \"TLS\")")
        : Optional.empty();
  }

  static final Shape SERVER =
      section(
          "server",
          "HTTP server settings.",
          optional(
              "port",
              new FieldType.IntOrText(),
              "Listening port. `--port`, then this, then env `PORT`, then 8080."),
          optional(
                  "log_level",
                  new FieldType.Int(1, 4),
                  "1 errors only, 2 warnings, 3 info (default), 4 debug.")
              .reportedAs("invalid-log-level"),
          optional(
              "allowed_hosts",
              new FieldType.TextList(),
              "Extra `Host` header values accepted besides loopback ones."),
          optional(
              "allowed_origins",
              new FieldType.TextList(),
              "Extra `Origin` header values accepted besides loopback ones."),
          optional(
              "metrics",
              new FieldType.Object(
                  section(
                      "metrics",
                      "The Prometheus endpoint `GET /metrics`.",
                      optional(
                          "enabled", new FieldType.Bool(), "Serve `GET /metrics` (default true)."),
                      optional(
                          "port",
                          new FieldType.Int(0, 65535),
                          "Serve it alone on this port (same address) instead of the main port."))),
              "The Prometheus endpoint `GET /metrics`."),
          optional(
              "limits",
              new FieldType.Object(
                  section(
                      "limits",
                      "What protects the server from slow and greedy clients, and its shutdown"
                          + " drain.",
                      optional(
                              "max_body_mb",
                              new FieldType.Int(1, 1024),
                              "Largest request body in MiB (default 4); larger ones get 413.")
                          .reportedAs("invalid-server-limit"),
                      optional(
                              "header_timeout",
                              new FieldType.Int(1, 3600),
                              "Seconds a client has to send a request's headers, from its first"
                                  + " byte (default 10).")
                          .reportedAs("invalid-server-limit"),
                      optional(
                              "body_timeout",
                              new FieldType.Int(1, 3600),
                              "Seconds a client has to send a request's body, after its headers"
                                  + " (default 60); slower ones get 408.")
                          .reportedAs("invalid-server-limit"),
                      optional(
                              "connections_per_client",
                              new FieldType.Int(0, 1_000_000),
                              "Open connections one client address may hold (default 256; 0: no"
                                  + " cap). Raise it behind a load balancer or proxy.")
                          .reportedAs("invalid-server-limit"),
                      optional(
                              "drain_timeout",
                              new FieldType.Int(0, 3600),
                              "Seconds requests in flight may run on shutdown before they are"
                                  + " answered `server shutting down` (default 10).")
                          .reportedAs("invalid-server-limit"),
                      optional(
                              "drain_delay",
                              new FieldType.Int(0, 3600),
                              "Seconds svc goes on accepting and serving after SIGTERM, with"
                                  + " `/ready` answering 503, before it stops accepting (default"
                                  + " 0). Set it to the time your load balancer takes to notice.")
                          .reportedAs("invalid-server-limit"))),
              "What protects the server from slow and greedy clients, and its shutdown drain."),
          optional(
              "audit",
              new FieldType.Object(
                  section(
                      "audit",
                      "The audit trail: one JSON line per tool call and agent task.",
                      optional(
                          "enabled",
                          new FieldType.Bool(),
                          "Write the audit trail (default false)."),
                      optional(
                          "path",
                          FieldType.text(),
                          "The file, relative to the project (default `audit.jsonl`)."))),
              "The audit trail: one JSON line per tool call and agent task."),
          optional(
              "auth",
              new FieldType.Object(
                  strict(
                      "server-auth",
                      "Whole-endpoint authentication of `/mcp` and `/agent/*` (beside each tool's"
                          + " own `auth`).",
                      required(
                              "plugin",
                              FieldType.choice("oauth"),
                              "`oauth`: svc is an OAuth 2.1 resource server accepting JWT access"
                                  + " tokens.")
                          .reportedAs("unknown-server-auth-plugin"),
                      required(
                          "policy",
                          new FieldType.Object(
                              strict(
                                  "server-auth-policy",
                                  "What a token must be to be accepted.",
                                  required(
                                      "issuer",
                                      FieldType.text(),
                                      "The authorization server's issuer URL (the tokens' `iss`);"
                                          + " `{{ env.NAME }}` allowed."),
                                  required(
                                      "audience",
                                      FieldType.text(),
                                      "What the tokens' `aud` must contain: this server's"
                                          + " identifier (RFC 8707); `{{ env.NAME }}` allowed."),
                                  optional(
                                      "scopes",
                                      new FieldType.TextList(),
                                      "Scopes every token must carry (advertised in the"
                                          + " protected-resource metadata)."),
                                  optional(
                                      "jwks_uri",
                                      FieldType.text(),
                                      "The issuer's signing keys (JWKS), when not discovered from"
                                          + " `{issuer}/.well-known/openid-configuration`."),
                                  optional(
                                      "introspection",
                                      new FieldType.Object(INTROSPECTION),
                                      "Ask the issuer about tokens that are not JWTs (OAuth 2.0"
                                          + " Token Introspection, RFC 7662)."))),
                          "What a token must be to be accepted."))),
              "Whole-endpoint authentication of `/mcp` and `/agent/*` (beside each tool's own"
                  + " `auth`)."));

  /** A shape where an unknown key is an error: a typo in security settings must not pass. */
  private static Shape strict(String id, String description, Field... fields) {
    return new Shape(id, description, List.of(fields), true);
  }

  /** A shape of the root file: an unknown key there is a warning, not an error. */
  private static Shape section(String id, String description, Field... fields) {
    return new Shape(id, description, List.of(fields), false);
  }
}

package dev.svc.definition;

import java.util.Map;

/**
 * The option names svc itself reads in the free-form {@code options} of an adapter (its
 * connector's) and of an agent's {@code model} (its provider's), with what each means: the editor
 * schemas list them, so that editors offer and explain them. Other names are allowed in both maps
 * (a driver's own settings, a model's generation parameters); docs/configuration.md has the full
 * tables.
 */
final class OptionNames {
  private OptionNames() {}

  /** An adapter's {@code options}, by connector. */
  static final Map<String, String> CONNECTOR =
      ToolShapes.inOrder(
          "sslmode",
          "`postgres`: `disable`, `allow`, `prefer`, `require`, `verify-ca` or `verify-full`.",
          "connect_timeout",
          "`postgres`: connect timeout in seconds.",
          "application_name",
          "`postgres`: the name reported to the server.",
          "max_connections",
          "`postgres`, `mysql`, local `sqlite`: most pool connections.",
          "charset",
          "`mysql`: the connection character set (`utf8mb4` for full Unicode).",
          "maxPoolSize",
          "`mongodb`: most pool connections per server (default 100).",
          "minPoolSize",
          "`mongodb`: fewest idle connections per server (default 0).",
          "connectTimeoutMS",
          "`mongodb`: connect timeout in milliseconds (default 10000).",
          "serverSelectionTimeoutMS",
          "`mongodb`: how long a call waits for a usable server, in milliseconds"
              + " (default 10000).",
          "pool_size",
          "`redis`: most pool connections, 1 to 200 (default 8).",
          "authToken",
          "remote `sqlite`: the database's auth token (also `auth_token`, `jwt`).",
          "sync_interval",
          "remote `sqlite`: replica sync interval passed to the server, e.g. `5s`.",
          "tls",
          "remote `sqlite`: `1` for https, `0` for http (with an explicit port).",
          "seed",
          "local `sqlite`: a SQL script that creates the database file when it does"
              + " not exist.");

  /** An agent's {@code model.options}, by provider. */
  static final Map<String, String> MODEL =
      ToolShapes.inOrder(
          "api_key",
          "The provider's key (else env `GOOGLE_API_KEY` or `OPENAI_API_KEY`).",
          "base_url",
          "The provider's endpoint (each provider has its default).",
          "project",
          "`vertex`: the Google Cloud project (else env `GOOGLE_CLOUD_PROJECT`).",
          "location",
          "`vertex`: the region (else env `GOOGLE_CLOUD_LOCATION`, then `global`).",
          "max_steps",
          "Model calls per task, a positive whole number (default 8).",
          "timeout",
          "Seconds a model call may take to start answering (default 120).");
}

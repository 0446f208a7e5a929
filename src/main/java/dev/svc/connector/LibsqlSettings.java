package dev.svc.connector;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where a remote libSQL database is and how to reach it, from a {@code sqlite} adapter with a
 * {@code libsql://}, {@code https://} or {@code http://} connection string. Holds the auth token:
 * {@link #toString()} leaves it out.
 *
 * <p>The adapter's options are appended to the connection string's query parameters, keys unchanged
 * (spec). Of those, svc reads three: the auth token ({@code authToken}, also {@code auth_token} or
 * {@code jwt}; sent as {@code Authorization: Bearer …}, never in the URL), the TLS switch {@code
 * tls} ({@code 1}: https, {@code 0}: http; valid only with an explicit port), and {@code
 * sync_interval} (checked to be a duration). Every other parameter, {@code sync_interval} included,
 * is passed on in the query of each request. {@code libsql://} means https.
 *
 * @param base {@code https://host[:port][/path]}, without a trailing slash or query
 * @param query the query passed on with every request, already encoded; may be empty
 * @param token the bearer token, if any
 * @param location host, port and path for messages
 */
record LibsqlSettings(String base, String query, Optional<String> token, String location) {
  static final List<String> TOKEN_KEYS = List.of("authToken", "auth_token", "jwt");
  static final String TLS = "tls";
  static final String SYNC_INTERVAL = "sync_interval";

  /** Options of local SQLite files that mean nothing to a remote database: not passed on. */
  private static final List<String> LOCAL_ONLY = List.of("seed");

  static LibsqlSettings of(ResolvedAdapter adapter) {
    String text = adapter.connectionString().strip();
    int separator = text.indexOf("://");
    String scheme = separator < 0 ? "" : text.substring(0, separator).toLowerCase(Locale.ROOT);
    if (!List.of("libsql", "https", "http").contains(scheme)) {
      throw invalid(adapter, "must start with libsql://, https:// or http://");
    }
    String rest = text.substring(separator + 3);
    int queryStart = rest.indexOf('?');
    String beforeQuery = queryStart < 0 ? rest : rest.substring(0, queryStart);
    int fragment = beforeQuery.indexOf('#');
    beforeQuery = fragment < 0 ? beforeQuery : beforeQuery.substring(0, fragment);
    int slash = beforeQuery.indexOf('/');
    String authority = slash < 0 ? beforeQuery : beforeQuery.substring(0, slash);
    String path = slash < 0 ? "" : beforeQuery.substring(slash);
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    if (authority.isEmpty() || authority.contains("@")) {
      throw invalid(
          adapter,
          authority.isEmpty()
              ? "names no host"
              : "holds credentials before the host; pass the token as the authToken option");
    }
    boolean explicitPort =
        authority.startsWith("[") ? authority.indexOf("]:") > 0 : authority.indexOf(':') >= 0;
    ConnectionStrings.hostPort(authority, 443, adapter.name()); // checks the port

    Map<String, String> parameters = new LinkedHashMap<>();
    if (queryStart >= 0) {
      parameters.putAll(ConnectionStrings.query(rest.substring(queryStart + 1)));
    }
    parameters.putAll(adapter.options());
    LOCAL_ONLY.forEach(parameters::remove);
    Optional<String> token = Optional.empty();
    for (String key : TOKEN_KEYS) {
      String value = parameters.remove(key);
      if (token.isEmpty() && value != null && !value.isBlank()) {
        token = Optional.of(value.strip());
      }
    }
    boolean secure = !scheme.equals("http");
    String tls = parameters.remove(TLS);
    if (tls != null) {
      if (!explicitPort) {
        throw new ConnectorUnavailableException(
            "option tls of sqlite adapter `"
                + adapter.name()
                + "` is valid only with an explicit port in the connection string (e.g."
                + " libsql://host:8080 with tls: \"0\")");
      }
      secure =
          switch (tls.strip()) {
            case "1" -> true;
            case "0" -> false;
            default ->
                throw new ConnectorUnavailableException(
                    "option tls of sqlite adapter `"
                        + adapter.name()
                        + "` must be 1 (TLS) or 0 (no TLS)");
          };
    }
    String interval = parameters.get(SYNC_INTERVAL);
    if (interval != null && ConnectionStrings.duration(interval).isEmpty()) {
      throw new ConnectorUnavailableException(
          "option sync_interval of sqlite adapter `"
              + adapter.name()
              + "` is not a duration: write e.g. 5s, 500ms or 1m");
    }
    StringBuilder query = new StringBuilder();
    parameters.forEach((key, value) -> {
      query.append(query.isEmpty() ? "" : "&");
      query.append(URLEncoder.encode(key, StandardCharsets.UTF_8));
      query.append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    });
    String base = (secure ? "https://" : "http://") + authority + path;
    try {
      URI.create(base + "/v3/pipeline" + (query.isEmpty() ? "" : "?" + query));
    } catch (IllegalArgumentException e) {
      throw invalid(adapter, "is not a valid URL");
    }
    return new LibsqlSettings(base, query.toString(), token, authority + path);
  }

  /** {@code GET} this to learn whether the server speaks Hrana over HTTP {@code version}. */
  URI versionUri(int version) {
    return uri("/v" + version);
  }

  /** {@code POST} pipelines of Hrana over HTTP {@code version} here. */
  URI pipelineUri(int version) {
    return uri("/v" + version + "/pipeline");
  }

  private URI uri(String suffix) {
    return URI.create(base + suffix + (query.isEmpty() ? "" : "?" + query));
  }

  boolean secure() {
    return base.startsWith("https://");
  }

  private static ConnectorUnavailableException invalid(ResolvedAdapter adapter, String problem) {
    return new ConnectorUnavailableException(
        "the connection string of sqlite adapter `" + adapter.name() + "` " + problem);
  }

  @Override
  public String toString() {
    return base + (token.isPresent() ? " (with a token)" : "");
  }
}

package dev.svc.compile;

import dev.svc.definition.AdapterDefinition;
import dev.svc.definition.Located;
import dev.svc.definition.NamedValue;
import dev.svc.definition.Shapes;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Suggestions;
import dev.svc.model.Adapter;
import dev.svc.model.ConnectorKind;
import dev.svc.model.EnvString;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** Compiles adapters: name, connector, connection string shape and known options. */
final class AdapterCompiler {
  private static final Pattern MYSQL_DSN =
      Pattern.compile("^[^@/]*@(tcp|unix)\\([^)]*\\)/[^?]*(\\?.*)?$");
  private static final List<String> POSTGRES_SSL_MODES =
      List.of("disable", "allow", "prefer", "require", "verify-ca", "verify-full");

  private final Path projectDirectory;
  private final Diagnostics diagnostics;
  private final Names names;
  private final EnvStrings env;

  AdapterCompiler(Diagnostics diagnostics, Names names, EnvStrings env, Path projectDirectory) {
    this.projectDirectory = projectDirectory;
    this.diagnostics = diagnostics;
    this.names = names;
    this.env = env;
  }

  Optional<Adapter> compile(AdapterDefinition adapter) {
    String name =
        names.nameOf(
            adapter.name(), adapter.fileName(), Shapes.ADAPTER_NAME, "adapter", adapter.origin());
    Optional<ConnectorKind> connector =
        adapter.connector().flatMap(c -> ConnectorKind.parse(c.value()));
    if (connector.isEmpty() || adapter.connectionString().isEmpty()) {
      return Optional.empty(); // reported by the shape check
    }
    Located<String> connection = adapter.connectionString().get();
    EnvString connectionString = env.substituted(connection);
    checkConnectionString(connector.get(), connection);
    AdapterSecrets.check(diagnostics, name, connection, adapter.options());
    Map<String, EnvString> options = new LinkedHashMap<>();
    for (NamedValue option : adapter.options()) {
      options.put(option.key().value(), env.substituted(option.value()));
      checkOption(connector.get(), option);
      if (connector.get() == ConnectorKind.SQLITE && option.key().value().equals("tls")) {
        checkTlsPort(connection, option);
      }
    }
    return Optional.of(new Adapter(name, connector.get(), connectionString, options));
  }

  private void checkConnectionString(ConnectorKind connector, Located<String> connection) {
    String text = connection.value().strip();
    if (text.startsWith("{{")) {
      return; // the whole string comes from the environment: checked at start
    }
    String literal = text.contains("{{") ? text.substring(0, text.indexOf("{{")) : text;
    String scheme = literal.contains("://") ? literal.substring(0, literal.indexOf("://")) : "";
    switch (connector) {
      case POSTGRES ->
          expectScheme(
              connection,
              scheme,
              List.of("postgresql", "postgres"),
              "postgresql://<user>:<password>@<host>:<port>/<database>?<param>=<value>");
      case MONGODB ->
          expectScheme(
              connection,
              scheme,
              List.of("mongodb", "mongodb+srv"),
              "mongodb://<user>:<password>@<host>:<port>/<database>");
      case REDIS ->
          expectScheme(
              connection,
              scheme,
              List.of("redis", "rediss"),
              "redis://<user>:<password>@<host>:<port>/<db_number>");
      case MYSQL -> {
        if (!scheme.equals("mysql") && !text.contains("{{") && !MYSQL_DSN.matcher(text).matches()) {
          diagnostics.error(
              "invalid-connection-string",
              connection.origin(),
              "the mysql connection string is not in DSN form",
              "write <user>:<password>@tcp(<host>:<port>)/<database>?<param>=<value>");
        }
      }
      case SQLITE -> {
        if (scheme.equals("ws") || scheme.equals("wss")) {
          diagnostics.error(
              "unsupported-scheme",
              connection.origin(),
              "sqlite connection strings with `" + scheme + "://` are not supported",
              "use libsql://, https:// or http:// for a remote database");
        } else if (!scheme.isEmpty() && !List.of("libsql", "https", "http").contains(scheme)) {
          diagnostics.error(
              "invalid-connection-string",
              connection.origin(),
              "`" + scheme + "://` is not a sqlite connection string",
              "write :memory:, file:./<path>.db, an absolute path, or libsql://…, https://…, http://…");
        }
      }
    }
  }

  /** The TLS switch of remote libSQL only makes sense with a port written in the URL (spec). */
  private void checkTlsPort(Located<String> connection, NamedValue option) {
    String text = connection.value().strip();
    if (text.contains("{{") || !text.contains("://")) {
      return;
    }
    String rest = text.substring(text.indexOf("://") + 3);
    String authority = rest.split("[/?#]", 2)[0];
    boolean port =
        authority.startsWith("[") ? authority.contains("]:") : authority.indexOf(':') >= 0;
    if (!port) {
      diagnostics.error(
          "invalid-option",
          option.key().origin(),
          "option `tls` is valid only with an explicit port in the connection string",
          "write the port, e.g. libsql://127.0.0.1:8080, or remove `tls`");
    }
  }

  private void expectScheme(
      Located<String> connection, String scheme, List<String> schemes, String shape) {
    if (!schemes.contains(scheme)) {
      diagnostics.error(
          "invalid-connection-string",
          connection.origin(),
          "the connection string must start with " + String.join(":// or ", schemes) + "://",
          "write " + shape);
    }
  }

  private void checkOption(ConnectorKind connector, NamedValue option) {
    Map<String, OptionKind> known = knownOptions(connector);
    String key = option.key().value();
    String value = option.value().value();
    OptionKind kind = known.get(key);
    if (kind == null) {
      Optional<String> close = Suggestions.closest(key, known.keySet());
      if (connector == ConnectorKind.REDIS) { // nothing takes unknown options: say so always
        diagnostics.warning(
            "unknown-option",
            option.key().origin(),
            "`" + key + "` is not a known redis option; it is ignored",
            close.map(c -> "did you mean `" + c + "`?").orElse("the redis option is pool_size"));
        return;
      }
      close.ifPresent(c ->
          diagnostics.warning(
              "unknown-option",
              option.key().origin(),
              "`"
                  + key
                  + "` is not a known "
                  + connector.wireName()
                  + " option; it is passed to the driver as written",
              "did you mean `" + c + "`?"));
      return;
    }
    if (value.contains("{{")) {
      return;
    }
    switch (kind) {
      case POSITIVE_INTEGER -> {
        if (!value.strip().matches("[1-9][0-9]{0,8}")) {
          diagnostics.error(
              "invalid-option",
              option.value().origin(),
              "option `" + key + "` must be a positive whole number, found `" + value + "`");
        }
      }
      case SSL_MODE -> {
        if (!POSTGRES_SSL_MODES.contains(value)) {
          diagnostics.error(
              "invalid-option",
              option.value().origin(),
              "sslmode `" + value + "` is not supported",
              "use one of: " + String.join(", ", POSTGRES_SSL_MODES));
        }
      }
      case NON_NEGATIVE_INTEGER -> {
        if (!value.strip().matches("[0-9]{1,9}")) {
          diagnostics.error(
              "invalid-option",
              option.value().origin(),
              "option `" + key + "` must be a whole number (0 or more), found `" + value + "`");
        }
      }
      case TLS_SWITCH -> {
        if (!value.strip().equals("0") && !value.strip().equals("1")) {
          diagnostics.error(
              "invalid-option",
              option.value().origin(),
              "option `tls` must be 1 (TLS) or 0 (no TLS), found `" + value + "`");
        }
      }
      case DURATION -> {
        if (!DURATION.matcher(value.strip()).matches()) {
          diagnostics.error(
              "invalid-option",
              option.value().origin(),
              "option `" + key + "` must be a duration, found `" + value + "`",
              "write e.g. 5s, 500ms or 1m");
        }
      }
      case TEXT -> {}
      case SEED_FILE -> checkSeed(option);
    }
  }

  private void checkSeed(NamedValue option) {
    Optional<Path> seed = FilePaths.resolve(projectDirectory, option.value(), diagnostics);
    if (seed.isPresent() && !Files.isRegularFile(seed.get())) {
      diagnostics.error(
          "missing-file",
          option.value().origin(),
          "the seed script `" + option.value().value() + "` does not exist",
          "paths start at the project directory");
    }
  }

  private enum OptionKind {
    TEXT,
    SEED_FILE,
    POSITIVE_INTEGER,
    NON_NEGATIVE_INTEGER,
    SSL_MODE,
    TLS_SWITCH,
    DURATION
  }

  /** A Go-style duration ({@code 5s}, {@code 1m30s}, {@code 500ms}) or whole seconds. */
  private static final Pattern DURATION =
      Pattern.compile("[0-9]+|(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+");

  private static Map<String, OptionKind> knownOptions(ConnectorKind connector) {
    return switch (connector) {
      case POSTGRES ->
          Map.of(
              "sslmode", OptionKind.SSL_MODE,
              "connect_timeout", OptionKind.POSITIVE_INTEGER,
              "application_name", OptionKind.TEXT,
              "max_connections", OptionKind.POSITIVE_INTEGER);
      case MYSQL ->
          Map.of("max_connections", OptionKind.POSITIVE_INTEGER, "charset", OptionKind.TEXT);
      case MONGODB ->
          Map.of(
              "maxPoolSize", OptionKind.POSITIVE_INTEGER,
              "minPoolSize", OptionKind.NON_NEGATIVE_INTEGER,
              "connectTimeoutMS", OptionKind.POSITIVE_INTEGER,
              "serverSelectionTimeoutMS", OptionKind.POSITIVE_INTEGER);
      case REDIS -> Map.of("pool_size", OptionKind.POSITIVE_INTEGER);
      case SQLITE ->
          Map.of(
              "authToken", OptionKind.TEXT,
              "auth_token", OptionKind.TEXT,
              "jwt", OptionKind.TEXT,
              "sync_interval", OptionKind.DURATION,
              "tls", OptionKind.TLS_SWITCH,
              "seed", OptionKind.SEED_FILE,
              "max_connections", OptionKind.POSITIVE_INTEGER);
    };
  }
}

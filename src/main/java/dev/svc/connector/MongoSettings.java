package dev.svc.connector;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bson.UuidRepresentation;

/**
 * What the MongoDB driver needs for one adapter, translated from its connection string and options.
 * Holds the password: never log {@link #client()}; {@link #toString()} leaves it out.
 *
 * <p>Options are appended to the connection string as its query parameters (the driver's own URI
 * options, names case-insensitive), so an option wins over the same parameter in the string. The
 * four svc documents are checked first: {@code maxPoolSize} (≥ 1, driver default 100), {@code
 * minPoolSize} (≥ 0, at most {@code maxPoolSize}, default 0), {@code connectTimeoutMS} (≥ 1,
 * default 10000) and {@code serverSelectionTimeoutMS} (≥ 1; svc's default is {@value
 * #DEFAULT_SERVER_SELECTION_MILLIS}, shorter than the driver's 30 s so that an unreachable server
 * is reported as such before a tool call's own 30 s deadline).
 *
 * @param location the hosts (or the SRV name), for messages
 * @param user the user name, for messages such as "authentication failed for user `x`"
 */
record MongoSettings(MongoClientSettings client, String location, Optional<String> user) {
  static final int DEFAULT_SERVER_SELECTION_MILLIS = 10_000;
  static final String MAX_POOL_SIZE = "maxPoolSize";
  static final String MIN_POOL_SIZE = "minPoolSize";
  static final String CONNECT_TIMEOUT = "connectTimeoutMS";
  static final String SERVER_SELECTION_TIMEOUT = "serverSelectionTimeoutMS";

  static MongoSettings of(ResolvedAdapter adapter) {
    String text = adapter.connectionString().strip();
    String lower = text.toLowerCase(Locale.ROOT);
    if (!lower.startsWith("mongodb://") && !lower.startsWith("mongodb+srv://")) {
      throw new ConnectorUnavailableException(
          "the connection string of mongodb adapter `"
              + adapter.name()
              + "` must start with mongodb:// or mongodb+srv://");
    }
    Map<String, String> options = adapter.options();
    int maxPool = number(adapter, MAX_POOL_SIZE, 1).orElse(100);
    number(adapter, MIN_POOL_SIZE, 0)
        .filter(min -> min > maxPool)
        .ifPresent(min -> {
          throw new ConnectorUnavailableException(
              "option minPoolSize of mongodb adapter `"
                  + adapter.name()
                  + "` ("
                  + min
                  + ") is larger than maxPoolSize ("
                  + maxPool
                  + ")");
        });
    number(adapter, CONNECT_TIMEOUT, 1);
    number(adapter, SERVER_SELECTION_TIMEOUT, 1);
    ConnectionString parsed;
    String uri = withOptions(text, options);
    try {
      parsed = new ConnectionString(uri);
    } catch (IllegalArgumentException e) {
      throw new ConnectorUnavailableException(
          "the connection string of mongodb adapter `"
              + adapter.name()
              + "` is invalid: "
              + hidden(SqlDialect.firstLine(e.getMessage()), uri),
          e);
    }
    MongoClientSettings.Builder client =
        MongoClientSettings.builder()
            .applyConnectionString(parsed)
            .uuidRepresentation(UuidRepresentation.STANDARD);
    if (parsed.getServerSelectionTimeout() == null) {
      client.applyToClusterSettings(cluster ->
          cluster.serverSelectionTimeout(DEFAULT_SERVER_SELECTION_MILLIS, TimeUnit.MILLISECONDS));
    }
    if (parsed.getApplicationName() == null) {
      client.applicationName("svc");
    }
    MongoClientSettings built = client.build();
    String location =
        parsed.isSrvProtocol()
            ? "SRV " + String.join(",", parsed.getHosts())
            : String.join(
                ",", built.getClusterSettings().getHosts().stream().map(Object::toString).toList());
    return new MongoSettings(built, location, Optional.ofNullable(parsed.getUsername()));
  }

  /** A whole-number option of at least {@code min}, when given. */
  private static Optional<Integer> number(ResolvedAdapter adapter, String key, int min) {
    String text = adapter.options().get(key);
    if (text == null) {
      return Optional.empty();
    }
    String t = text.strip();
    if (t.matches("[0-9]{1,9}") && Integer.parseInt(t) >= min) {
      return Optional.of(Integer.parseInt(t));
    }
    throw new ConnectorUnavailableException(
        "option "
            + key
            + " of mongodb adapter `"
            + adapter.name()
            + "` must be a whole number of at least "
            + min);
  }

  /** The connection string with every option appended as a query parameter. */
  static String withOptions(String text, Map<String, String> options) {
    if (options.isEmpty()) {
      return text;
    }
    StringBuilder uri = new StringBuilder(text);
    int afterScheme = text.indexOf("://") + 3;
    int query = text.indexOf('?');
    if (query < 0) {
      int at = text.lastIndexOf('@');
      int slash = text.indexOf('/', Math.max(afterScheme, at + 1));
      uri.append(slash < 0 ? "/?" : "?");
    } else if (query < text.length() - 1 && !text.endsWith("&")) {
      uri.append('&');
    }
    String separator = "";
    for (Map.Entry<String, String> option : options.entrySet()) {
      uri.append(separator)
          .append(URLEncoder.encode(option.getKey(), StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(option.getValue().strip(), StandardCharsets.UTF_8));
      separator = "&";
    }
    return uri.toString();
  }

  /**
   * A driver message without the connection string (which may hold a password) or a piece of it:
   * the driver quotes what it could not read ({@code invalid host 'app:pw127.0.0.1'} when the
   * {@code @} is missing) or ends with a value it copied ({@code Duplicated values for
   * proxyPassword: pw}). Its own words, quoted or not, stay.
   */
  static String hidden(String message, String connectionString) {
    String shown = message.replace(connectionString, "<connection string>");
    Matcher quoted = QUOTED.matcher(shown);
    StringBuilder out = new StringBuilder();
    while (quoted.find()) {
      quoted.appendReplacement(
          out,
          Matcher.quoteReplacement(
              connectionString.contains(quoted.group(1)) ? "'…'" : quoted.group()));
    }
    quoted.appendTail(out);
    int colon = out.lastIndexOf(": ");
    if (colon >= 0) {
      String tail = out.substring(colon + 2).strip();
      if (tail.length() >= 2 && connectionString.contains(tail)) {
        out.replace(colon + 2, out.length(), "…");
      }
    }
    return out.toString();
  }

  /** A quoted piece of a driver message: {@code 'app:pw@host'}. */
  private static final Pattern QUOTED = Pattern.compile("'([^']{2,})'");

  @Override
  public String toString() {
    return "mongodb " + location + user.map(u -> " as " + u).orElse("");
  }
}

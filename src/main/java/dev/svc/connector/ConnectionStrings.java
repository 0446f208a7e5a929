package dev.svc.connector;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Small parsers shared by the connection-string translations: percent-decoding, query strings,
 * Go-style durations and the pool size option. Error messages never quote the connection string,
 * which may hold a password.
 */
final class ConnectionStrings {
  /** The option (or query parameter) that sets the pool size. */
  static final String MAX_CONNECTIONS = "max_connections";

  /** The largest pool we open: far beyond what helps on one database, small enough to be safe. */
  static final int MAX_POOL_SIZE = 200;

  private static final Pattern DURATION_PART =
      Pattern.compile("([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|μs|ms|s|m|h)");

  private ConnectionStrings() {}

  /**
   * Decodes {@code %XX} escapes as UTF-8. Unlike {@link java.net.URLDecoder}, {@code +} stays a
   * plus sign (it is a literal in URL userinfo and paths), and a {@code %} not followed by two hex
   * digits is kept as written.
   */
  static String percentDecode(String text) {
    if (text.indexOf('%') < 0) {
      return text;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '%' && isHex(text, i + 1) && isHex(text, i + 2)) {
        bytes.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
        i += 3;
      } else {
        byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < text.length()) {
          encoded = text.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        bytes.writeBytes(encoded);
        i++;
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static boolean isHex(String text, int index) {
    return index < text.length() && Character.digit(text.charAt(index), 16) >= 0;
  }

  /** Parses {@code a=1&b=2} (keys and values percent-decoded; a repeated key keeps the last). */
  static Map<String, String> query(String query) {
    Map<String, String> parameters = new LinkedHashMap<>();
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      parameters.put(percentDecode(key), percentDecode(value));
    }
    return parameters;
  }

  /**
   * Parses a Go duration ({@code 5s}, {@code 500ms}, {@code 1m30s}, {@code 1.5h}); a bare number
   * means seconds.
   */
  static Optional<Duration> duration(String text) {
    String t = text.strip();
    if (t.matches("[0-9]+")) {
      return Optional.of(Duration.ofSeconds(Long.parseLong(t)));
    }
    if (t.isEmpty()) {
      return Optional.empty();
    }
    Matcher m = DURATION_PART.matcher(t);
    double nanos = 0;
    int end = 0;
    while (m.find() && m.start() == end) {
      double amount = Double.parseDouble(m.group(1));
      nanos +=
          amount
              * switch (m.group(2)) {
                case "ns" -> 1;
                case "us", "µs", "μs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9; // h
              };
      end = m.end();
    }
    return end == t.length() ? Optional.of(Duration.ofNanos((long) nanos)) : Optional.empty();
  }

  /** Milliseconds of a Go duration, for driver properties; explains what was expected if bad. */
  static String millis(String adapter, String key, String text) {
    Duration d =
        duration(text)
            .orElseThrow(() ->
                new ConnectorUnavailableException(
                    "`"
                        + key
                        + "` of adapter `"
                        + adapter
                        + "` is not a duration: write e.g. 5s, 500ms or 1m"));
    return Long.toString(d.toMillis());
  }

  /**
   * The pool size: {@code max_connections} from {@code settings} (query parameters merged with
   * options), else {@code fallback}.
   */
  static int poolSize(String adapter, Map<String, String> settings, int fallback) {
    String text = settings.get(MAX_CONNECTIONS);
    if (text == null) {
      return fallback;
    }
    try {
      int size = Integer.parseInt(text.strip());
      if (size >= 1 && size <= MAX_POOL_SIZE) {
        return size;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new ConnectorUnavailableException(
        "option max_connections of adapter `"
            + adapter
            + "` must be a whole number from 1 to "
            + MAX_POOL_SIZE);
  }

  /**
   * Splits {@code host:port} (IPv6 in brackets) into host and port, with a default port. A port
   * that is not a number and a host holding a colon are refused without being quoted: they are what
   * a password becomes when the {@code @} before the host is missing or the password holds an
   * unencoded {@code ?} ({@code u:pass?word@h} reads as host {@code u}, port {@code pass}).
   */
  static HostPort hostPort(String text, int defaultPort, String adapter) {
    String host = text;
    String port = "";
    if (text.startsWith("[")) {
      int close = text.indexOf(']');
      host = close < 0 ? text : text.substring(0, close + 1);
      port = close >= 0 && text.startsWith(":", close + 1) ? text.substring(close + 2) : "";
    } else if (text.indexOf(':') >= 0) {
      host = text.substring(0, text.lastIndexOf(':'));
      port = text.substring(text.lastIndexOf(':') + 1);
    }
    if (host.isEmpty()) {
      host = "localhost";
    }
    if (!port.matches("[0-9]{0,9}") || (!host.startsWith("[") && host.indexOf(':') >= 0)) {
      throw new ConnectorUnavailableException(
          "the connection string of adapter `"
              + adapter
              + "` has a host or port that cannot be read (not quoted: it may hold the password);"
              + " check that an @ ends the user and password, and percent-encode a ? or # in"
              + " the password (%3F, %23)");
    }
    if (port.isEmpty()) {
      return new HostPort(host, defaultPort);
    }
    int p = Integer.parseInt(port);
    if (p > 0 && p < 65536) {
      return new HostPort(host, p);
    }
    throw new ConnectorUnavailableException(
        "the connection string of adapter `" + adapter + "` has an invalid port `" + port + "`");
  }

  /**
   * Splits what follows {@code scheme://} in {@code user:password@host:port,host2/database?query}.
   * User and password are percent-decoded. A password holding {@code @} or {@code /} should be
   * percent-encoded; an unencoded one still parses as long as the query holds no {@code @}.
   */
  static UrlParts url(String afterScheme, int defaultPort, String adapter) {
    int firstQuery = afterScheme.indexOf('?');
    int at = afterScheme.lastIndexOf('@', firstQuery < 0 ? afterScheme.length() : firstQuery);
    String userinfo = at < 0 ? "" : afterScheme.substring(0, at);
    String rest = afterScheme.substring(at + 1);
    int query = rest.indexOf('?');
    String beforeQuery = query < 0 ? rest : rest.substring(0, query);
    int slash = beforeQuery.indexOf('/');
    String hostList = slash < 0 ? beforeQuery : beforeQuery.substring(0, slash);
    String database = slash < 0 ? "" : percentDecode(beforeQuery.substring(slash + 1));
    List<HostPort> hosts = new ArrayList<>();
    for (String host : hostList.split(",", -1)) {
      hosts.add(hostPort(host, defaultPort, adapter));
    }
    Optional<String> user = Optional.empty();
    Optional<String> password = Optional.empty();
    if (!userinfo.isEmpty()) {
      int colon = userinfo.indexOf(':');
      String name = colon < 0 ? userinfo : userinfo.substring(0, colon);
      user = name.isEmpty() ? Optional.empty() : Optional.of(percentDecode(name));
      password =
          colon < 0 ? Optional.empty() : Optional.of(percentDecode(userinfo.substring(colon + 1)));
    }
    Map<String, String> parameters = query < 0 ? Map.of() : query(rest.substring(query + 1));
    return new UrlParts(user, password, hosts, database, parameters);
  }

  /** The parts of a URL-shaped connection string; {@code database} may be empty. */
  record UrlParts(
      Optional<String> user,
      Optional<String> password,
      List<HostPort> hosts,
      String database,
      Map<String, String> query) {
    UrlParts {
      hosts = List.copyOf(hosts);
      query = Collections.unmodifiableMap(new LinkedHashMap<>(query));
    }

    String hostList() {
      return String.join(",", hosts.stream().map(HostPort::toString).toList());
    }

    @Override
    public String toString() {
      return hostList() + "/" + database; // never the password
    }
  }

  /** A host (IPv6 literals keep their brackets) and a port. */
  record HostPort(String host, int port) {
    @Override
    public String toString() {
      return host + ":" + port;
    }
  }
}

package dev.svc.project;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads {@code .env} files: {@code KEY=value} lines, optional {@code export} prefix, {@code #}
 * comments, single quotes (literal) and double quotes (with {@code \n}, {@code \t}, {@code \"} and
 * {@code \\} escapes). Small enough that a library would cost more than it gives.
 */
public final class DotEnv {
  private DotEnv() {}

  /** The variables of the file, or an empty map when it does not exist. */
  public static Map<String, String> read(Path file) {
    if (!Files.isRegularFile(file)) {
      return Map.of();
    }
    try {
      return parse(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  public static Map<String, String> parse(String text) {
    Map<String, String> values = new LinkedHashMap<>();
    for (String rawLine : text.split("\r?\n")) {
      String line = rawLine.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("export ")) {
        line = line.substring("export ".length()).strip();
      }
      int equals = line.indexOf('=');
      if (equals <= 0) {
        continue;
      }
      String key = line.substring(0, equals).strip();
      if (!key.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
        continue;
      }
      values.put(key, value(line.substring(equals + 1).strip()));
    }
    return values;
  }

  private static String value(String raw) {
    if (raw.length() >= 2 && raw.startsWith("'") && raw.endsWith("'")) {
      return raw.substring(1, raw.length() - 1);
    }
    if (raw.length() >= 2 && raw.startsWith("\"") && raw.endsWith("\"")) {
      return unescape(raw.substring(1, raw.length() - 1));
    }
    int comment = raw.indexOf(" #");
    return (comment >= 0 ? raw.substring(0, comment) : raw).strip();
  }

  private static String unescape(String quoted) {
    StringBuilder out = new StringBuilder(quoted.length());
    for (int i = 0; i < quoted.length(); i++) {
      char c = quoted.charAt(i);
      if (c == '\\' && i + 1 < quoted.length()) {
        char next = quoted.charAt(++i);
        out.append(
            switch (next) {
              case 'n' -> '\n';
              case 't' -> '\t';
              case 'r' -> '\r';
              default -> next;
            });
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}

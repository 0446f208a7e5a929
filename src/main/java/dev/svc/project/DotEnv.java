package dev.svc.project;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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

  /**
   * The most bytes a {@code .env} file may hold. A larger one is refused unread: a 3 GiB file ended
   * every command with an {@code OutOfMemoryError} and its stack trace.
   */
  static final int MAX_BYTES = 4 * 1024 * 1024;

  /**
   * The variables of the file, or an empty map when it does not exist.
   *
   * @throws UncheckedIOException when it cannot be read, is larger than {@link #MAX_BYTES} or is
   *     not UTF-8 text; the message says which, and where the first byte that is not UTF-8 is
   */
  public static Map<String, String> read(Path file) {
    if (!Files.isRegularFile(file)) {
      return Map.of();
    }
    try {
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        throw refused(
            file
                + " holds "
                + size / (1024 * 1024)
                + " MiB; a .env file may hold at most "
                + MAX_BYTES / (1024 * 1024)
                + " MiB");
      }
      return parse(utf8(file, Files.readAllBytes(file)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** The bytes as text, or a refusal naming the line and column of the first that is not UTF-8. */
  private static String utf8(Path file, byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(in, out, true);
    if (result.isError()) {
      String before = new String(bytes, 0, in.position(), StandardCharsets.UTF_8);
      int line = 1 + (int) before.chars().filter(c -> c == '\n').count();
      int column = 1 + before.length() - (before.lastIndexOf('\n') + 1);
      throw refused(file + ":" + line + ":" + column + ": a .env file must be UTF-8 text");
    }
    return out.flip().toString();
  }

  private static UncheckedIOException refused(String message) {
    return new UncheckedIOException(message, new IOException(message));
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

package dev.svc.cli;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.log.Level;
import dev.svc.log.LogSink;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --log-format json} for everything svc prints, not only its log: the start-up banner, the
 * diagnostics, error lines, and what libraries write to standard output or error themselves. Each
 * line that is not JSON already becomes one JSON log line ({@code tag} {@code svc}, its text the
 * {@code msg}); diagnostics are written as structured lines with their code and position.
 */
final class JsonConsole {
  private JsonConsole() {}

  /** Whether a command line asks for JSON logs ({@code --log-format json} or {@code =json}). */
  static boolean requested(String... args) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equalsIgnoreCase("--log-format=json")
          || (args[i].equals("--log-format")
              && i + 1 < args.length
              && args[i + 1].equalsIgnoreCase("json"))) {
        return true;
      }
    }
    return false;
  }

  /** The context with its output and error streams turned into JSON lines. */
  static CliContext of(CliContext context) {
    if (context.out() instanceof Lines && context.err() instanceof Lines) {
      return context;
    }
    return new CliContext(
        context.workingDirectory(),
        context.environment(),
        new Lines(context.out(), false),
        new Lines(context.err(), true));
  }

  /** A process stream (for {@link System#setOut}, {@link System#setErr}) writing JSON lines. */
  static PrintStream stream(OutputStream target, boolean isErrorStream) {
    Lines lines = new Lines(new PrintWriter(target, true, StandardCharsets.UTF_8), isErrorStream);
    return new PrintStream(
        new OutputStream() {
          private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

          @Override
          public synchronized void write(int b) {
            if (b == '\n') {
              lines.println(line.toString(StandardCharsets.UTF_8));
              line.reset();
            } else {
              line.write(b);
            }
          }

          @Override
          public synchronized void write(byte[] bytes, int offset, int length) {
            int start = offset;
            for (int i = offset; i < offset + length; i++) {
              if (bytes[i] == '\n') {
                line.write(bytes, start, i - start);
                lines.println(line.toString(StandardCharsets.UTF_8));
                line.reset();
                start = i + 1;
              }
            }
            line.write(bytes, start, offset + length - start);
          }

          @Override
          public synchronized void flush() {
            lines.flush();
          }
        },
        true,
        StandardCharsets.UTF_8);
  }

  /**
   * Prints diagnostics: structured JSON lines on a JSON console, else the text every command
   * prints.
   */
  static boolean printed(List<Diagnostic> diagnostics, PrintWriter err) {
    if (!(err instanceof Lines json)) {
      return false;
    }
    for (Diagnostic diagnostic : diagnostics) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("code", diagnostic.code());
      fields.put("file", diagnostic.origin().file());
      fields.put("line", diagnostic.origin().line());
      fields.put("column", diagnostic.origin().column());
      diagnostic.hint().ifPresent(hint -> fields.put("hint", hint));
      json.json(
          LogSink.jsonLine(
              diagnostic.isError() ? Level.ERROR : Level.WARN,
              "compile",
              diagnostic.message(),
              fields));
    }
    boolean anyError = diagnostics.stream().anyMatch(Diagnostic::isError);
    json.json(
        LogSink.jsonLine(
            anyError ? Level.ERROR : Level.WARN,
            "compile",
            Diagnostics.summary(diagnostics),
            Map.of()));
    json.flush();
    return true;
  }

  /**
   * Turns each line printed into a JSON log line, unless it is one already; lines of standard
   * output are at info level, those of standard error at error level when they start with {@code
   * error}, else at warn level.
   */
  static final class Lines extends PrintWriter {
    private final PrintWriter target;
    private final boolean isErrorStream;
    private final StringBuilder line = new StringBuilder();

    Lines(PrintWriter target, boolean isErrorStream) {
      super(Writer.nullWriter(), true);
      this.target = target;
      this.isErrorStream = isErrorStream;
    }

    /** Writes a line that is JSON already. */
    void json(String jsonLine) {
      synchronized (lock) {
        target.println(jsonLine);
        target.flush();
      }
    }

    @Override
    public void write(int c) {
      synchronized (lock) {
        if (c == '\n') {
          emit();
        } else if (c != '\r') {
          line.append((char) c);
        }
      }
    }

    @Override
    public void write(char[] buf, int off, int len) {
      synchronized (lock) {
        for (int i = off; i < off + len; i++) {
          write(buf[i]);
        }
      }
    }

    @Override
    public void write(String s, int off, int len) {
      synchronized (lock) {
        for (int i = off; i < off + len; i++) {
          write(s.charAt(i));
        }
      }
    }

    @Override
    public void println() {
      write('\n');
    }

    @Override
    public void println(String x) {
      synchronized (lock) {
        write(x == null ? "null" : x, 0, x == null ? 4 : x.length());
        write('\n');
      }
    }

    @Override
    public void flush() {
      target.flush();
    }

    @Override
    public void close() {
      synchronized (lock) {
        if (!line.isEmpty()) {
          emit();
        }
      }
      target.flush();
    }

    private void emit() {
      String text = line.toString();
      line.setLength(0);
      if (text.isBlank()) {
        return;
      }
      String stripped = text.strip();
      if (stripped.startsWith("{") && stripped.endsWith("}")) {
        target.println(stripped);
      } else {
        String message = text.startsWith("svc: ") ? text.substring(5) : text;
        Level level =
            !isErrorStream ? Level.INFO : text.startsWith("error") ? Level.ERROR : Level.WARN;
        target.println(LogSink.jsonLine(level, "svc", message, Map.of()));
      }
      target.flush();
    }
  }
}

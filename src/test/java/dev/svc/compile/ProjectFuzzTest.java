package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.diagnostic.Origin;
import dev.svc.testing.ProjectFixture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Projects broken at random, hundreds of them: the bundled quickstart and a project with every
 * other kind of definition (agent, MongoDB and Redis adapters, auth, cache, rate limit, tests),
 * each with one to three of their files changed (a line deleted, doubled, moved or indented
 * otherwise, a value or a key replaced, YAML's anchors, aliases, tags, merges and documents put in,
 * the text cut short or given bytes that are not UTF-8). Whatever the files say, the compiler
 * reports it: it never throws, every diagnostic points into a file of the project at a line and
 * column that file has, no message repeats a long value whole, and the same files give the same
 * diagnostics again.
 *
 * <p>Fixed seed; {@code -Dsvc.fuzz.seed=N -Dsvc.fuzz.projects=M} for another or a longer run (a
 * failure names the seed, the project's number and the files it changed).
 */
class ProjectFuzzTest {
  private static final long SEED = Long.getLong("svc.fuzz.seed", 20261127L);
  private static final int PROJECTS = Integer.getInteger("svc.fuzz.projects", 300);

  /** The longest message or hint that is not a written value repeated whole (2,000 and a cut). */
  private static final int LONGEST_MESSAGE = 2_100;

  private static final String EVERY_KIND =
      """
      == .svc
      name: kinds
      version: "1.0.0"
      server:
        port: 8080
        log_level: 3
        auth:
          issuer: https://issuer.example
          audience: kinds
      tools:
        cache:
          enabled: true
          ttl: 30
        rate_limit:
          requests: 10
          per: minute
      agents:
        tasks:
          max_running: 4
      == app/adapters/docs.terse
      connector: mongodb
      connection_string: "{{ env.MONGO_URL }}"
      database: docs
      == app/adapters/kv.terse
      connector: redis
      connection_string: redis://127.0.0.1:6379/0
      == app/adapters/pg.terse
      connector: postgres
      connection_string: "{{ env.PG_URL }}"
      options:
        sslmode: disable
      == app/tools/find_docs/config.terse
      description: Documents of a kind.
      use: docs
      statement:
        collection: articles
        find: {kind: "{{ inputs.kind }}"}
        limit: 10
      inputs:
        kind: {type: string, description: The kind, enum: [news, blog]}
      auth:
        plugin: api_key
        keys: "{{ env.API_KEYS }}"
      cache:
        ttl: 60
      rate_limit:
        requests: 5
      == app/tools/get_count/config.terse
      description: A counter.
      use: kv
      statement: GET counter:{{ inputs.name }}
      inputs:
        name: {type: string, description: Which counter, max_length: 40}
      == app/tools/orders/config.terse
      description: Orders of a customer.
      use: pg
      statement: |
        SELECT id, total FROM orders
        WHERE customer_id = {{ inputs.customer }} AND total >= {{ inputs.min_total }}
        ORDER BY id
      inputs:
        customer: {type: int, description: The customer, minimum: 1}
        min_total: {type: number, description: Smallest total, required: false, default: 0}
      output_schema:
        type: object
        properties:
          rows: {type: array}
      == app/tools/orders/tests.terse
      - name: first customer
        inputs: {customer: 1}
        expect:
          is_error: false
      == app/prompts/summarize.terse
      description: Summarizes a text.
      arguments:
        text: {description: The text, required: true}
        style: {description: How, required: false}
      messages:
        - role: user
          text: "Summarize {{ text }} in a {{ style }} style."
        - role: assistant
          text: Sure.
      == app/resources/notes/config.terse
      name: notes
      uri: notes://today
      description: Today's notes.
      mime_type: text/markdown
      file: notes.md
      == app/resources/notes/notes.md
      # Notes
      == app/agents/helper/config.terse
      description: Answers questions about orders.
      instruction: You help with orders. Be brief.
      model:
        provider: openai
        model: gpt-4o-mini
        options:
          api_key: "{{ env.OPENAI_KEY }}"
          temperature: 0.2
      tool_access:
        mode: allow_list
        tools: [orders, get_count]
      """;

  private static final List<String> VALUES =
      List.of(
          "",
          "~",
          "null",
          "true",
          "-1",
          "0",
          "1e999",
          "0x1F",
          "99999999999999999999999999999999999999",
          "[",
          "{",
          "]",
          "*nowhere",
          "&a x",
          "!!binary AAAA",
          "!!python/object:os.system x",
          "'unterminated",
          "\"\\u0000\"",
          "\"{{ inputs.nope }}\"",
          "{{",
          "}}",
          "{{ env.",
          "SELECT {{ inputs.x }}; DROP TABLE t",
          "- item",
          "a: b: c",
          "\"é😀\\uD800\"",
          "[1, [2, [3]]]",
          "{a: 1, a: 2}",
          "!!set {a, b}",
          "2026-13-45");

  private static final List<String> LINES =
      List.of(
          "<<: *missing",
          "base: &base {description: x}",
          "<<: *base",
          "? complex key",
          ": value",
          "---",
          "...",
          "%YAML 1.1",
          "loop: &l [*l]",
          "a: &a [x, x, x, x, x, x, x, x, x]",
          "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
          "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
          "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
          "\tdescription: tab",
          "description: second",
          "inputs:",
          "  extra: {type: nope}",
          "statement: SELECT 1",
          "use: nowhere",
          "connector: oracle",
          "model: {provider: nobody}",
          "messages: []",
          "- role: system",
          "auth: {plugin: custom}");

  private static final List<String> KEYS =
      List.of(
          "description",
          "use",
          "statement",
          "inputs",
          "type",
          "required",
          "connector",
          "connection_string",
          "messages",
          "role",
          "text",
          "arguments",
          "model",
          "provider",
          "tools",
          "name",
          "uri",
          "file",
          "auth",
          "plugin",
          "cache",
          "ttl",
          "server",
          "descripton",
          "__proto__",
          "k".repeat(5_000));

  @TempDir Path dir;

  @Test
  void projectsBrokenAtRandomAreReportedWithPositionsInTheirFilesAndNeverStopTheCompiler()
      throws IOException {
    Path quickstart = Path.of("examples/quickstart");
    Path kinds = ProjectFixture.write(dir.resolve("kinds"), EVERY_KIND);
    Random random = new Random(SEED);
    List<String> faults = new ArrayList<>();
    for (int n = 0; n < PROJECTS && faults.size() < 10; n++) {
      Path project = dir.resolve("p" + n);
      copy(random.nextBoolean() ? quickstart : kinds, project);
      List<Path> files = definitionFiles(project);
      List<String> changed = new ArrayList<>();
      for (int f = 1 + random.nextInt(2); f > 0; f--) {
        Path file = files.get(random.nextInt(files.size()));
        byte[] mutated = mutate(Files.readAllBytes(file), random);
        Files.write(file, mutated);
        changed.add(project.relativize(file) + " (" + mutated.length + " bytes)");
      }
      String fault = check(project, n % 10 == 0);
      if (fault != null) {
        faults.add("seed " + SEED + " project " + n + " (" + changed + "): " + fault);
      } else {
        delete(project);
      }
    }
    assertThat(faults).as("what the compiler made of broken projects").isEmpty();
  }

  /** What is wrong with what the compiler made of {@code project}, or null. */
  private static String check(Path project, boolean twice) {
    List<Diagnostic> diagnostics;
    try {
      diagnostics = ProjectFixture.compile(project).diagnostics();
    } catch (RuntimeException | StackOverflowError e) {
      return "the compiler threw " + e;
    }
    for (Diagnostic diagnostic : diagnostics) {
      String fault = checkOrigin(project, diagnostic.origin());
      if (fault != null) {
        return fault + ": " + shorten(diagnostic.render());
      }
      if (diagnostic.message().isBlank()) {
        return "a diagnostic without a message: " + diagnostic.render();
      }
      int longest = Math.max(diagnostic.message().length(), diagnostic.hint().orElse("").length());
      if (longest > LONGEST_MESSAGE) {
        return "a message or hint of " + longest + " characters: " + shorten(diagnostic.render());
      }
    }
    if (twice) {
      List<String> again =
          ProjectFixture.compile(project).diagnostics().stream().map(Diagnostic::render).toList();
      List<String> first = diagnostics.stream().map(Diagnostic::render).toList();
      if (!again.equals(first)) {
        return "the same files gave other diagnostics the second time: " + first + " then " + again;
      }
    }
    return null;
  }

  /** Whether {@code origin} names a file of the project, and a line and column it has. */
  private static String checkOrigin(Path project, Origin origin) {
    if (origin.file().equals(Origin.INLINE)) {
      return null;
    }
    Path file = project.resolve(origin.file()).normalize();
    if (!file.startsWith(project) || !Files.exists(file)) {
      return "a diagnostic of a file the project does not have";
    }
    if (origin.line() == 0) {
      return origin.column() == 0 ? null : "a column without a line";
    }
    String text;
    try {
      text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String[] lines = text.split("\r\n|\r|\n", -1);
    if (origin.line() < 0 || origin.line() > lines.length) {
      return "line " + origin.line() + " of a file of " + lines.length + " lines";
    }
    if (origin.column() < 1 || origin.column() > lines[origin.line() - 1].length() + 1) {
      return "column "
          + origin.column()
          + " of a line of "
          + lines[origin.line() - 1].length()
          + " characters";
    }
    return null;
  }

  // --- mutations ---

  private static byte[] mutate(byte[] bytes, Random random) {
    byte[] out = bytes;
    for (int m = 1 + random.nextInt(3); m > 0; m--) {
      out = random.nextInt(8) == 0 ? mutateBytes(out, random) : mutateLines(out, random);
    }
    return out;
  }

  private static byte[] mutateLines(byte[] bytes, Random random) {
    List<String> lines =
        new ArrayList<>(Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\n", -1)));
    int at = random.nextInt(lines.size());
    String line = lines.get(at);
    switch (random.nextInt(9)) {
      case 0 -> lines.remove(at);
      case 1 -> lines.add(at, line);
      case 2 -> {
        int other = random.nextInt(lines.size());
        lines.set(at, lines.get(other));
        lines.set(other, line);
      }
      case 3 ->
          lines.set(
              at,
              random.nextBoolean()
                  ? " ".repeat(1 + random.nextInt(3)) + line
                  : line.replaceFirst("^ {1,2}", ""));
      case 4, 5 -> {
        int colon = line.indexOf(": ");
        String value = VALUES.get(random.nextInt(VALUES.size()));
        if (random.nextInt(10) == 0) {
          value = "x".repeat(100_000);
        }
        lines.set(at, colon < 0 ? line + " " + value : line.substring(0, colon + 2) + value);
      }
      case 6 -> {
        int colon = line.indexOf(':');
        String key = KEYS.get(random.nextInt(KEYS.size()));
        String indent = line.substring(0, line.length() - line.stripLeading().length());
        lines.set(at, colon < 0 ? indent + key + ":" : indent + key + line.substring(colon));
      }
      case 7 -> {
        String indent = line.substring(0, line.length() - line.stripLeading().length());
        lines.add(at, indent + LINES.get(random.nextInt(LINES.size())));
      }
      default -> lines.subList(at, lines.size()).clear(); // cut short
    }
    return String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] mutateBytes(byte[] bytes, Random random) {
    int at = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
    byte[] insert =
        switch (random.nextInt(5)) {
          case 0 -> new byte[] {0};
          case 1 -> new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
          case 2 -> new byte[] {(byte) 0xC3, (byte) 0x28};
          case 3 -> new byte[] {'\r'};
          default -> new byte[] {(byte) 0xFF, (byte) 0xFE};
        };
    byte[] out = Arrays.copyOf(bytes, bytes.length + insert.length);
    System.arraycopy(insert, 0, out, at, insert.length);
    System.arraycopy(bytes, at, out, at + insert.length, bytes.length - at);
    return out;
  }

  // --- files ---

  private static List<Path> definitionFiles(Path project) throws IOException {
    try (Stream<Path> all = Files.walk(project)) {
      return all.filter(p ->
              p.getFileName().toString().endsWith(".terse")
                  || p.getFileName().toString().equals(".svc"))
          .sorted()
          .toList();
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path source : all.sorted().toList()) {
        Path target = to.resolve(from.relativize(source).toString());
        if (Files.isDirectory(source)) {
          Files.createDirectories(target);
        } else if (!source.getFileName().toString().endsWith(".db")) {
          Files.copy(source, target);
        }
      }
    }
  }

  private static void delete(Path project) throws IOException {
    try (Stream<Path> all = Files.walk(project)) {
      for (Path path : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  private static String shorten(String text) {
    return text.length() > 500 ? text.substring(0, 500) + "… (" + text.length() + ")" : text;
  }
}

package dev.svc.connector;

import dev.svc.json.Jackson;
import java.math.BigDecimal;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Takes the values a call bound out of what svc derives from a database's answer: the tool error,
 * and the log lines, span statuses and causes behind it (docs/decisions.md "Bound values stay out
 * of messages"). Databases quote what they were sent ({@code invalid input syntax for type integer:
 * "…"}, {@code Incorrect integer value: '…' for column}, {@code unknown subcommand '…'}), and a
 * value a call binds may be a secret.
 *
 * <p>Every occurrence of a bound value's text of at least {@value #MIN_LENGTH} characters becomes
 * the placeholder it stood for, {@code {{ inputs.<name> }}}: the message keeps the database's words
 * and says which input it objected to. Also replaced: the value as JSON and SQL quoting escape it,
 * the string leaves of a structured value, each line of a value spanning lines (svc keeps a
 * message's first line), and a run of at least {@value #PREFIX} characters from the start of a
 * longer value (databases cut long values short in messages). Shorter values ( {@code 42}, {@code
 * id}) are left: they cannot be told apart from a message's own words. Booleans and nulls are never
 * replaced.
 *
 * <p>One per failing call, made only on the failure path.
 */
final class BoundValueRedaction {
  /** Values shorter than this are not replaced. */
  static final int MIN_LENGTH = 4;

  /** How much of the start of a longer value is enough to replace a cut-off copy of it. */
  static final int PREFIX = 16;

  /** A text to find and the input it came from. */
  private record Needle(String text, String input) {}

  private static final BoundValueRedaction NONE = new BoundValueRedaction(List.of());

  private final List<Needle> needles;

  private BoundValueRedaction(List<Needle> needles) {
    this.needles = needles;
  }

  /** The redaction of the values of one call, by input name. */
  static BoundValueRedaction of(Map<String, ?> values) {
    if (values.isEmpty()) {
      return NONE;
    }
    Map<String, String> texts = new LinkedHashMap<>(); // text → input; the first input wins
    for (Map.Entry<String, ?> entry : values.entrySet()) {
      List<String> found = new ArrayList<>();
      collect(entry.getValue(), found);
      for (String text : found) {
        for (String variant : variants(text)) {
          if (variant.length() >= MIN_LENGTH) {
            texts.putIfAbsent(variant, entry.getKey());
          }
        }
      }
    }
    if (texts.isEmpty()) {
      return NONE;
    }
    List<Needle> needles = new ArrayList<>(texts.size());
    texts.forEach((text, input) -> needles.add(new Needle(text, input)));
    needles.sort(Comparator.comparingInt((Needle n) -> n.text().length()).reversed());
    return new BoundValueRedaction(List.copyOf(needles));
  }

  /** The marker standing for a value of {@code input} (or of a claim, {@code auth.claims.x}). */
  static String marker(String input) {
    return input.startsWith("auth.") ? "{{ " + input + " }}" : "{{ inputs." + input + " }}";
  }

  /** {@code message} with every bound value replaced by its marker; null stays null. */
  String apply(String message) {
    if (message == null || needles.isEmpty() || message.length() < MIN_LENGTH) {
      return message;
    }
    int length = message.length();
    int[] ends = new int[length]; // the end of the longest match starting at each position
    String[] inputs = new String[length];
    boolean found = false;
    for (Needle needle : needles) {
      String text = needle.text();
      String start = text.length() > PREFIX ? text.substring(0, PREFIX) : text;
      for (int at = message.indexOf(start); at >= 0; at = message.indexOf(start, at + 1)) {
        int end = at + start.length();
        int next = start.length();
        while (end < length && next < text.length() && message.charAt(end) == text.charAt(next)) {
          end++;
          next++;
        }
        if (end > ends[at]) {
          ends[at] = end;
          inputs[at] = needle.input();
          found = true;
        }
      }
    }
    if (!found) {
      return message;
    }
    StringBuilder redacted = new StringBuilder(length);
    for (int i = 0; i < length; ) {
      if (ends[i] == 0) {
        redacted.append(message.charAt(i++));
        continue;
      }
      int end = ends[i];
      for (int j = i + 1; j < end; j++) {
        end = Math.max(end, ends[j]); // overlapping matches become one marker
      }
      redacted.append(marker(inputs[i]));
      i = end;
    }
    return redacted.toString();
  }

  /**
   * {@code failure} with its message and its causes' messages redacted: the same failure when
   * nothing in it quotes a bound value. Failures other than svc's statement and connector ones are
   * returned as they are.
   */
  RuntimeException apply(RuntimeException failure) {
    if (needles.isEmpty() || !quotesAValue(failure)) {
      return failure;
    }
    return switch (failure) {
      case StatementFailedException e ->
          new StatementFailedException(apply(e.getMessage()), e.timedOut(), cause(e.getCause()));
      case ConnectorUnavailableException e ->
          e.withMessage(apply(e.getMessage()), cause(e.getCause()));
      default -> failure;
    };
  }

  private boolean quotesAValue(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage();
      if (message != null && !apply(message).equals(message)) {
        return true;
      }
    }
    return false;
  }

  /** A copy of a driver's failure chain with the messages redacted and the stack traces kept. */
  private Throwable cause(Throwable cause) {
    if (cause == null) {
      return null;
    }
    Throwable inner = cause.getCause() == cause ? null : cause(cause.getCause());
    RedactedCause copy =
        new RedactedCause(cause.getClass().getName(), apply(cause.getMessage()), inner);
    copy.setStackTrace(cause.getStackTrace());
    return copy;
  }

  /**
   * A driver's exception as logs and traces may show it: its class name, its message with bound
   * values replaced, its stack trace.
   */
  static final class RedactedCause extends Exception {
    private static final long serialVersionUID = 1L;
    private final String originalClass;

    RedactedCause(String originalClass, String message, Throwable cause) {
      super(message, cause, false, true);
      this.originalClass = originalClass;
    }

    /** The class of the exception this copies. */
    String originalClass() {
      return originalClass;
    }

    @Override
    public String toString() {
      String message = getLocalizedMessage();
      return message == null ? originalClass : originalClass + ": " + message;
    }
  }

  /** The texts a value is written as: strings, numbers, dates, a structured value's leaves. */
  private static void collect(Object value, List<String> texts) {
    switch (value) {
      case null -> {}
      case Boolean _ -> {}
      case String s -> texts.add(s);
      case Double d -> {
        texts.add(d.toString());
        if (Double.isFinite(d)) {
          texts.add(BigDecimal.valueOf(d).toPlainString());
        }
      }
      case BigDecimal d -> texts.add(d.toPlainString());
      case TemporalAccessor t -> texts.add(JsonValues.iso(t));
      case JsonNode node -> collect(node, texts);
      default -> texts.add(value.toString());
    }
  }

  private static void collect(JsonNode node, List<String> texts) {
    if (node.isString()) {
      texts.add(node.stringValue());
    } else if (node.isNumber()) {
      texts.add(node.asString());
    } else if (node.isContainer()) {
      texts.add(node.toString());
      for (JsonNode child : node) {
        collect(child, texts);
      }
    }
  }

  /** The text as written, as a JSON string escapes it, and as SQL string quoting escapes it. */
  private static List<String> variants(String text) {
    List<String> variants = new ArrayList<>(4);
    variants.add(text);
    String json = Jackson.MAPPER.writeValueAsString(text);
    json = json.substring(1, json.length() - 1);
    if (!json.equals(text)) {
      variants.add(json);
    }
    if (text.indexOf('\'') >= 0) {
      variants.add(text.replace("'", "''"));
      variants.add(text.replace("\\", "\\\\").replace("'", "\\'"));
    }
    // svc keeps a database's message to its first line, which may end inside a value: each line
    // of a value spanning lines is a value of its own ("pw-Secret1\nx" quoted as "pw-Secret1)
    if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
      for (String line : text.split("\r\n|\r|\n")) {
        variants.add(line);
      }
    }
    return variants;
  }
}

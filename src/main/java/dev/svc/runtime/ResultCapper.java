package dev.svc.runtime;

import dev.svc.json.Json;
import dev.svc.model.ResultCaps;
import java.io.Writer;
import java.util.Optional;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * Applies a tool's caps to its final payload (docs/results.md). A list keeps at most {@code
 * max_rows} rows, then as many whole leading rows as fit in {@code max_bytes} of JSON (UTF-8):
 * never a broken row, and the first row whenever it fits. Anything else, and a list whose first row
 * alone is over the byte cap, is kept whole or refused.
 *
 * <p>The JSON is written once, row by row, counting its UTF-8 bytes as it goes: it stops at the
 * first row that does not fit, and the text is kept for the response.
 */
final class ResultCapper {
  private ResultCapper() {}

  /** What the caps made of a payload. */
  sealed interface Capped {
    /**
     * The payload as returned.
     *
     * @param json its JSON, when the byte cap made us write it
     * @param cut the cap that cut it, when one did
     */
    record Kept(JsonNode payload, Optional<String> json, Optional<Truncation.Limit> cut)
        implements Capped {}

    /** Over the byte cap and not a list that can be cut: the one-line failure message. */
    record TooLarge(String message) implements Capped {}
  }

  static Capped cap(JsonNode payload, ResultCaps caps) {
    if (!(payload instanceof ArrayNode rows)) {
      if (caps.maxBytes() == 0) {
        return new Capped.Kept(payload, Optional.empty(), Optional.empty());
      }
      String json = Json.MAPPER.writeValueAsString(payload);
      long bytes = Utf8Text.bytes(json);
      return bytes > caps.maxBytes()
          ? new Capped.TooLarge(
              "the result is "
                  + bytes
                  + " bytes of JSON, over the tool's max_bytes of "
                  + caps.maxBytes()
                  + raise())
          : new Capped.Kept(payload, Optional.of(json), Optional.empty());
    }
    int limit = caps.maxRows() == 0 ? rows.size() : (int) Math.min(rows.size(), caps.maxRows());
    if (caps.maxBytes() == 0) {
      return limit < rows.size()
          ? new Capped.Kept(
              prefix(rows, limit), Optional.empty(), Optional.of(Truncation.Limit.MAX_ROWS))
          : new Capped.Kept(rows, Optional.empty(), Optional.empty());
    }
    if (limit == rows.size()) {
      // the common case, a result within both caps: written once, as the answer needs it anyway;
      // a UTF-16 unit is at most 3 bytes of UTF-8, so short text needs no counting
      String json = Json.MAPPER.writeValueAsString(rows);
      if ((long) json.length() * 3 <= caps.maxBytes() || Utf8Text.bytes(json) <= caps.maxBytes()) {
        return new Capped.Kept(rows, Optional.of(json), Optional.empty());
      }
    }
    Utf8Text out = new Utf8Text();
    int kept = 0;
    long firstRowBytes = 0;
    try (JsonGenerator json = Json.MAPPER.createGenerator(out)) {
      json.writeStartArray();
      json.flush();
      while (kept < limit) {
        int mark = out.length();
        long markBytes = out.bytes();
        Json.MAPPER.writeTree(json, rows.get(kept));
        json.flush();
        if (out.bytes() + 1 > caps.maxBytes()) { // + 1: the closing bracket
          firstRowBytes = out.bytes() - markBytes;
          out.cutBackTo(mark, markBytes); // and what the generator still writes is dropped
          break;
        }
        kept++;
      }
      if (kept == limit) {
        json.writeEndArray();
      }
    }
    if (kept == limit) {
      return limit < rows.size()
          ? new Capped.Kept(
              prefix(rows, limit), Optional.of(out.text()), Optional.of(Truncation.Limit.MAX_ROWS))
          : new Capped.Kept(rows, Optional.of(out.text()), Optional.empty());
    }
    if (kept == 0) {
      return new Capped.TooLarge(
          "the first row alone is "
              + firstRowBytes
              + " bytes of JSON, over the tool's max_bytes of "
              + caps.maxBytes()
              + raise());
    }
    out.end(']');
    return new Capped.Kept(
        prefix(rows, kept), Optional.of(out.text()), Optional.of(Truncation.Limit.MAX_BYTES));
  }

  private static String raise() {
    return "; ask for less, or raise max_bytes (in the tool's config.terse, or under tools in"
        + " .svc; 0 removes the cap)";
  }

  private static ArrayNode prefix(ArrayNode rows, int count) {
    ArrayNode kept = rows.arrayNode(count);
    for (int i = 0; i < count; i++) {
      kept.add(rows.get(i));
    }
    return kept;
  }

  /**
   * JSON text being written, with its length in UTF-8 bytes counted as the characters arrive. It
   * can be cut back to an earlier mark, after which it takes no more from the generator.
   */
  static final class Utf8Text extends Writer {
    private final StringBuilder text = new StringBuilder();
    private long bytes;
    private boolean sealed;

    /** The UTF-8 length of {@code text}, without encoding it. */
    static long bytes(CharSequence text) {
      long n = 0;
      for (int i = 0; i < text.length(); i++) {
        n += bytes(text.charAt(i));
      }
      return n;
    }

    /**
     * The UTF-8 bytes of one UTF-16 unit: a surrogate counts 2, so a pair counts the 4 of its code
     * point.
     */
    private static int bytes(char c) {
      if (c < 0x80) {
        return 1;
      }
      if (c < 0x800 || Character.isSurrogate(c)) {
        return 2;
      }
      return 3;
    }

    @Override
    public void write(char[] chars, int offset, int length) {
      if (sealed) {
        return;
      }
      for (int i = offset; i < offset + length; i++) {
        bytes += bytes(chars[i]);
      }
      text.append(chars, offset, length);
    }

    @Override
    public void write(String chars, int offset, int length) {
      if (sealed) {
        return;
      }
      for (int i = offset; i < offset + length; i++) {
        bytes += bytes(chars.charAt(i));
      }
      text.append(chars, offset, offset + length);
    }

    @Override
    public void write(int c) {
      if (!sealed) {
        bytes += bytes((char) c);
        text.append((char) c);
      }
    }

    int length() {
      return text.length();
    }

    long bytes() {
      return bytes;
    }

    void cutBackTo(int length, long bytesAtLength) {
      text.setLength(length);
      bytes = bytesAtLength;
      sealed = true;
    }

    /** Ends the text cut back to with {@code last}. */
    void end(char last) {
      text.append(last);
      bytes += bytes(last);
    }

    String text() {
      return text.toString();
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}

package dev.svc.json;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Text that is not Unicode, mended where JSON enters svc. JSON may write half of a UTF-16 surrogate
 * pair alone ({@code "\uDE6C"}), and parsers read it into a Java string; Jackson then refuses to
 * write that string as UTF-8 ("Incomplete surrogate pair"), so a client's lone surrogate in a
 * prompt argument, a handler's answer or an A2A message would end its request with a 500 (and a
 * stored task would fail every read of it). Each lone surrogate, in values and keys alike, becomes
 * U+FFFD, as JavaScript's {@code toWellFormed} and every UTF-8 decoder do. The tree is walked only
 * when the text could hold one, so well-formed requests pay for one scan of their bytes.
 */
public final class LoneSurrogates {
  /** What a lone surrogate becomes. */
  public static final char REPLACEMENT = '\uFFFD';

  private LoneSurrogates() {}

  /** {@code tree}, parsed from {@code json}, with no lone surrogate left (mended in place). */
  public static JsonNode mended(JsonNode tree, byte[] json) {
    return tree != null && mayHold(json) ? mended(tree) : tree;
  }

  /** {@code tree}, parsed from {@code json}, with no lone surrogate left (mended in place). */
  public static JsonNode mended(JsonNode tree, String json) {
    return tree != null && mayHold(json) ? mended(tree) : tree;
  }

  /**
   * Whether JSON text could hold a lone surrogate: an escape {@code \uD800}–{@code \uDFFF}, or the
   * bytes of a surrogate encoded alone ({@code ED A0}–{@code ED BF}, which some parsers decode).
   * Also true for a well-formed pair written as two escapes: the walk then changes nothing.
   */
  static boolean mayHold(byte[] json) {
    for (int i = 0; i + 1 < json.length; i++) {
      byte b = json[i];
      if (b == (byte) 0xED && (json[i + 1] & 0xE0) == 0xA0) {
        return true;
      }
      if (b == '\\'
          && i + 3 < json.length
          && isSurrogateEscape(json[i + 1], json[i + 2], json[i + 3])) {
        return true;
      }
    }
    return false;
  }

  static boolean mayHold(String json) {
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (Character.isSurrogate(c)) {
        return true;
      }
      if (c == '\\'
          && i + 3 < json.length()
          && isSurrogateEscape(json.charAt(i + 1), json.charAt(i + 2), json.charAt(i + 3))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isSurrogateEscape(int u, int d, int nibble) {
    return u == 'u'
        && (d | 0x20) == 'd'
        && ((nibble >= '8' && nibble <= '9') || ((nibble | 0x20) >= 'a' && (nibble | 0x20) <= 'f'));
  }

  /** {@code node} with every lone surrogate in its strings and keys replaced (in place). */
  public static JsonNode mended(JsonNode node) {
    if (node == null) {
      return null;
    }
    if (node.isString()) {
      String text = node.asString();
      String mended = wellFormed(text);
      return mended == text ? node : Json.NODES.stringNode(mended);
    }
    if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        JsonNode item = array.get(i);
        JsonNode mended = mended(item);
        if (mended != item) {
          array.set(i, mended);
        }
      }
      return array;
    }
    if (node instanceof ObjectNode object) {
      boolean keysMended = false;
      List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(object.size());
      for (Map.Entry<String, JsonNode> entry : object.properties()) {
        String key = wellFormed(entry.getKey());
        keysMended |= key != entry.getKey();
        entries.add(Map.entry(key, mended(entry.getValue())));
      }
      if (keysMended) {
        object.removeAll();
      }
      for (Map.Entry<String, JsonNode> entry : entries) {
        if (keysMended || object.get(entry.getKey()) != entry.getValue()) {
          object.set(entry.getKey(), entry.getValue());
        }
      }
      return object;
    }
    return node;
  }

  /**
   * {@code text} itself when it is well-formed UTF-16, else a copy with U+FFFD for each lone half.
   */
  public static String wellFormed(String text) {
    int length = text.length();
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      if (!Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < length
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
        continue;
      }
      return replaced(text, i);
    }
    return text;
  }

  private static String replaced(String text, int first) {
    StringBuilder out = new StringBuilder(text.length());
    out.append(text, 0, first);
    for (int i = first; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        out.append(c).append(text.charAt(++i));
      } else {
        out.append(Character.isSurrogate(c) ? REPLACEMENT : c);
      }
    }
    return out.toString();
  }
}

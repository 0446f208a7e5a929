package dev.svc.json;

import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * An estimate of the heap a result's JSON tree takes, for a result's memory ({@code
 * dev.svc.connector.ResultMemory}) and an in-memory task store: cheap (one walk of the tree, no
 * serialization) and on the high side. Per object ~{@value #OBJECT} bytes (node, map, table) plus
 * ~{@value #FIELD} per field (entry, node) and its name's characters; per array ~{@value #ARRAY}
 * plus ~{@value #ELEMENT} per element; per string ~{@value #STRING} plus its characters (one byte
 * each: most text is Latin-1 in the JVM's compact strings; text beyond is undercounted by half); a
 * number ~{@value #NUMBER} (a decimal ~{@value #BIG_NUMBER}); {@code true}, {@code false} and
 * {@code null} are shared, so only their field or element counts. Measured (Jackson 3, compressed
 * pointers, 200,000 rows after a full collection): a row of one integer ({@code {"g": 1}}) takes
 * 226–236 bytes of heap, estimated 231; a row {@code {"name": "item 12345", "price": 1.25, "id":
 * 7}} 391–412, estimated 435.
 */
public final class JsonFootprint {
  public static final int OBJECT = 150;
  public static final int FIELD = 56;
  public static final int ARRAY = 48;
  public static final int ELEMENT = 24;
  public static final int STRING = 48;
  public static final int NUMBER = 24;
  public static final int BIG_NUMBER = 80;

  private JsonFootprint() {}

  /** The estimated heap bytes of {@code node} and everything under it. */
  public static long of(JsonNode node) {
    if (node.isObject()) {
      long bytes = OBJECT;
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        bytes += FIELD + field.getKey().length() + of(field.getValue());
      }
      return bytes;
    }
    if (node.isArray()) {
      long bytes = ARRAY;
      for (JsonNode element : node) {
        bytes += ELEMENT + of(element);
      }
      return bytes;
    }
    if (node.isString()) {
      return STRING + node.stringValue().length();
    }
    if (node.isBigDecimal() || node.isBigInteger()) {
      return BIG_NUMBER;
    }
    if (node.isNumber()) {
      return NUMBER;
    }
    if (node.isBinary()) {
      return STRING + node.binaryValue().length;
    }
    return 0; // true, false and null are shared
  }
}

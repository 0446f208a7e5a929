package dev.svc.connector;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.types.Decimal128;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * MongoDB replies as plain JSON (docs/decisions.md "Results"): object ids as hex strings, dates as
 * ISO-8601 strings, 32- and 64-bit integers, doubles and decimals as numbers, binary as base64 (a
 * UUID as its text), regular expressions as {@code /pattern/flags}, timestamps as {@code {"t":
 * seconds, "i": increment}}.
 */
final class BsonJson {
  private BsonJson() {}

  static JsonNode of(BsonValue value) {
    return switch (value.getBsonType()) {
      case DOCUMENT -> object(value.asDocument());
      case ARRAY -> {
        ArrayNode array = JsonValues.NODES.arrayNode(value.asArray().size());
        value.asArray().forEach(element -> array.add(of(element)));
        yield array;
      }
      case STRING -> JsonValues.NODES.stringNode(value.asString().getValue());
      case INT32 -> JsonValues.NODES.numberNode((long) value.asInt32().getValue());
      case INT64 -> JsonValues.NODES.numberNode(value.asInt64().getValue());
      case DOUBLE -> JsonValues.number(value.asDouble().getValue());
      case DECIMAL128 -> decimal(value.asDecimal128().getValue());
      case BOOLEAN -> JsonValues.NODES.booleanNode(value.asBoolean().getValue());
      case OBJECT_ID -> JsonValues.NODES.stringNode(value.asObjectId().getValue().toHexString());
      case DATE_TIME ->
          JsonValues.NODES.stringNode(
              JsonValues.iso(Instant.ofEpochMilli(value.asDateTime().getValue())));
      case TIMESTAMP ->
          // both halves are unsigned 32-bit integers; the driver's getters are Java ints, which
          // read a time past 2038-01-19 (2^31 s) as negative
          JsonValues.NODES
              .objectNode()
              .put("t", Integer.toUnsignedLong(value.asTimestamp().getTime()))
              .put("i", Integer.toUnsignedLong(value.asTimestamp().getInc()));
      case BINARY -> binary(value.asBinary());
      case REGULAR_EXPRESSION ->
          JsonValues.NODES.stringNode(
              "/"
                  + value.asRegularExpression().getPattern()
                  + "/"
                  + value.asRegularExpression().getOptions());
      case SYMBOL -> JsonValues.NODES.stringNode(value.asSymbol().getSymbol());
      case JAVASCRIPT -> JsonValues.NODES.stringNode(value.asJavaScript().getCode());
      case JAVASCRIPT_WITH_SCOPE ->
          JsonValues.NODES.stringNode(value.asJavaScriptWithScope().getCode());
      case DB_POINTER ->
          JsonValues.NODES.stringNode(
              value.asDBPointer().getNamespace() + "/" + value.asDBPointer().getId().toHexString());
      case MIN_KEY -> JsonValues.NODES.stringNode("MinKey");
      case MAX_KEY -> JsonValues.NODES.stringNode("MaxKey");
      case NULL, UNDEFINED, END_OF_DOCUMENT -> JsonValues.NODES.nullNode();
    };
  }

  static ObjectNode object(BsonDocument document) {
    ObjectNode object = JsonValues.NODES.objectNode();
    for (Map.Entry<String, BsonValue> field : document.entrySet()) {
      object.set(field.getKey(), of(field.getValue()));
    }
    return object;
  }

  private static JsonNode decimal(Decimal128 value) {
    if (value.isNaN()) {
      return JsonValues.NODES.stringNode("NaN");
    }
    if (value.isInfinite()) {
      return JsonValues.NODES.stringNode(value.isNegative() ? "-Infinity" : "Infinity");
    }
    try {
      return JsonValues.decimal(value.bigDecimalValue());
    } catch (ArithmeticException negativeZero) {
      return JsonValues.decimal(BigDecimal.ZERO);
    }
  }

  private static JsonNode binary(BsonBinary binary) {
    byte type = binary.getType();
    if (type == BsonBinarySubType.UUID_STANDARD.getValue() && binary.getData().length == 16) {
      return JsonValues.NODES.stringNode(binary.asUuid().toString());
    }
    return JsonValues.bytes(binary.getData());
  }
}

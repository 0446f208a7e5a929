package dev.svc.connector;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.exceptions.JedisDataException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Redis replies as JSON (docs/decisions.md "Results"), read from RESP3 as Jedis decodes it: bulk
 * and simple strings become strings (bytes that are not UTF-8 become base64), integers and doubles
 * numbers, booleans booleans, nil null, arrays and sets arrays, maps (hashes) objects. An error
 * nested in an array (a failed command of a transaction) becomes {@code {"error": "…"}}.
 */
final class RedisReplies {
  /**
   * Commands whose RESP3 reply is a map: an empty reply from them is {@code {}} (Jedis gives an
   * empty map and an empty array the same form).
   */
  private static final Set<String> MAP_COMMANDS = Set.of("HGETALL", "CONFIG GET", "HELLO");

  private RedisReplies() {}

  /** The JSON form of {@code reply} to {@code command} (its first argument words). */
  static JsonNode json(Object reply, List<String> commandWords) {
    if (reply instanceof List<?> list && list.isEmpty() && isMapCommand(commandWords)) {
      return JsonValues.NODES.objectNode();
    }
    return json(reply);
  }

  private static boolean isMapCommand(List<String> words) {
    String name = words.isEmpty() ? "" : words.getFirst().toUpperCase(Locale.ROOT);
    String withSub = words.size() < 2 ? name : name + " " + words.get(1).toUpperCase(Locale.ROOT);
    return MAP_COMMANDS.contains(name) || MAP_COMMANDS.contains(withSub);
  }

  static JsonNode json(Object reply) {
    return switch (reply) {
      case null -> JsonValues.NODES.nullNode();
      case byte[] bytes -> text(bytes);
      case Long l -> JsonValues.NODES.numberNode(l.longValue());
      case Double d -> JsonValues.number(d);
      case BigInteger b -> JsonValues.NODES.numberNode(b);
      case Boolean b -> JsonValues.NODES.booleanNode(b);
      case String s -> JsonValues.NODES.stringNode(s);
      case JedisDataException e ->
          JsonValues.NODES.objectNode().put("error", message(e.getMessage()));
      case Map.Entry<?, ?> entry -> {
        ObjectNode object = JsonValues.NODES.objectNode();
        object.set(key(entry.getKey()), json(entry.getValue()));
        yield object;
      }
      case List<?> list when !list.isEmpty() && list.getFirst() instanceof Map.Entry<?, ?> -> {
        ObjectNode object = JsonValues.NODES.objectNode();
        for (Object element : list) {
          if (element instanceof Map.Entry<?, ?> entry) {
            object.set(key(entry.getKey()), json(entry.getValue()));
          }
        }
        yield object;
      }
      case Collection<?> list -> {
        ArrayNode array = JsonValues.NODES.arrayNode(list.size());
        list.forEach(element -> array.add(json(element)));
        yield array;
      }
      default -> JsonValues.NODES.stringNode(String.valueOf(reply));
    };
  }

  private static String key(Object key) {
    JsonNode node = json(key);
    return node.isString() ? node.stringValue() : node.toString();
  }

  /** UTF-8 text when the bytes are UTF-8; base64 otherwise (JSON cannot carry raw bytes). */
  private static JsonNode text(byte[] bytes) {
    try {
      return JsonValues.NODES.stringNode(
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString());
    } catch (CharacterCodingException e) {
      return JsonValues.bytes(bytes);
    }
  }

  /**
   * A Redis error as a one-line tool error: {@code ERR unknown command 'FOO'}, without the
   * arguments Redis quotes after it ({@code , with args beginning with: …}): those are bound
   * values.
   */
  static String message(String error) {
    String line = SqlDialect.firstLine(error);
    int args = line.indexOf(", with args beginning with:");
    return (args < 0 ? line : line.substring(0, args)).strip();
  }
}

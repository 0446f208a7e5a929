package dev.svc.json;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/** The JSON mapper and node factory of the runtime, and canonical JSON for cache keys. */
public final class Json {
  public static final JsonMapper MAPPER = Jackson.MAPPER;
  public static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Json() {}

  /** JSON text with object keys sorted at every level: equal values give equal text. */
  public static String canonical(JsonNode node) {
    StringBuilder out = new StringBuilder();
    canonical(node, out);
    return out.toString();
  }

  private static void canonical(JsonNode node, StringBuilder out) {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> entries = new ArrayList<>(node.properties());
      entries.sort(Map.Entry.comparingByKey());
      out.append('{');
      for (int i = 0; i < entries.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(MAPPER.writeValueAsString(entries.get(i).getKey())).append(':');
        canonical(entries.get(i).getValue(), out);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        canonical(node.get(i), out);
      }
      out.append(']');
    } else {
      out.append(MAPPER.writeValueAsString(node));
    }
  }
}

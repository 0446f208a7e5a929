package dev.svc.call;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** HTTP request headers as a caller sent them; names are matched case-insensitively. */
public record Headers(Map<String, List<String>> values) {
  public static final Headers NONE = new Headers(Map.of());

  public Headers {
    Map<String, List<String>> lower = new TreeMap<>();
    values.forEach((name, list) ->
        lower
            .computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new java.util.ArrayList<>())
            .addAll(list));
    lower.replaceAll((k, v) -> List.copyOf(v));
    values = java.util.Collections.unmodifiableMap(lower);
  }

  public static Headers of(String... nameValuePairs) {
    Map<String, List<String>> map = new TreeMap<>();
    for (int i = 0; i + 1 < nameValuePairs.length; i += 2) {
      map.computeIfAbsent(nameValuePairs[i], k -> new java.util.ArrayList<>())
          .add(nameValuePairs[i + 1]);
    }
    return new Headers(map);
  }

  public Optional<String> first(String name) {
    List<String> list = values.get(name.toLowerCase(Locale.ROOT));
    return list == null || list.isEmpty() ? Optional.empty() : Optional.of(list.getFirst());
  }

  /** Headers a script may see: everything but cookies. */
  public Map<String, String> forScripts() {
    Map<String, String> flat = new TreeMap<>();
    values.forEach((name, list) -> {
      if (!name.equals("cookie") && !list.isEmpty()) {
        flat.put(name, String.join(", ", list));
      }
    });
    return flat;
  }
}

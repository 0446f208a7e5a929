package dev.svc.call;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * HTTP request headers as a caller sent them, in arrival order; names are matched
 * case-insensitively. Every request makes one, so it is two arrays, not a map of lists: a request
 * has a handful of headers and is asked for a few of them.
 */
public final class Headers {
  public static final Headers NONE = new Headers(new String[0], new String[0], 0);

  /** Lower-case names; {@code names[i]} was sent with {@code values[i]}. */
  private final String[] names;

  private final String[] values;
  private final int size;

  private Headers(String[] names, String[] values, int size) {
    this.names = names;
    this.values = values;
    this.size = size;
  }

  /** Headers from name-value pairs, names in any case. */
  public static Headers of(String... nameValuePairs) {
    Builder builder = new Builder(nameValuePairs.length / 2);
    for (int i = 0; i + 1 < nameValuePairs.length; i += 2) {
      builder.add(nameValuePairs[i], nameValuePairs[i + 1]);
    }
    return builder.build();
  }

  /** The first value sent under {@code name} (any case). */
  public Optional<String> first(String name) {
    // the names are lower-case: compared ignoring case, with no lower-case copy of name per call
    for (int i = 0; i < size; i++) {
      if (names[i].equalsIgnoreCase(name)) {
        return Optional.of(values[i]);
      }
    }
    return Optional.empty();
  }

  /** How many times the header is sent (its name ignoring case). */
  public int count(String name) {
    int found = 0;
    for (int k = 0; k < size; k++) {
      if (names[k].equalsIgnoreCase(name)) {
        found++;
      }
    }
    return found;
  }

  /** Every value sent under {@code name} (any case), in arrival order. */
  public List<String> all(String name) {
    List<String> found = List.of();
    for (int i = 0; i < size; i++) {
      if (names[i].equalsIgnoreCase(name)) {
        if (found.isEmpty()) {
          found = List.of(values[i]);
        } else {
          List<String> more = new ArrayList<>(found);
          more.add(values[i]);
          found = List.copyOf(more);
        }
      }
    }
    return found;
  }

  /** These headers without any sent under {@code name} (any case). */
  public Headers without(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    String[] keptNames = new String[size];
    String[] keptValues = new String[size];
    int kept = 0;
    for (int i = 0; i < size; i++) {
      if (!names[i].equals(lower)) {
        keptNames[kept] = names[i];
        keptValues[kept] = values[i];
        kept++;
      }
    }
    return kept == size ? this : new Headers(keptNames, keptValues, kept);
  }

  /** Every value per lower-case name, names sorted, values in arrival order. */
  public Map<String, List<String>> values() {
    Map<String, List<String>> map = new TreeMap<>();
    for (int i = 0; i < size; i++) {
      map.computeIfAbsent(names[i], k -> new ArrayList<>()).add(values[i]);
    }
    map.replaceAll((name, list) -> List.copyOf(list));
    return Collections.unmodifiableMap(map);
  }

  /** Headers a script may see: everything but cookies, a name's values joined by ", ". */
  public Map<String, String> forScripts() {
    Map<String, String> flat = new TreeMap<>();
    values()
        .forEach((name, list) -> {
          if (!name.equals("cookie")) {
            flat.put(name, String.join(", ", list));
          }
        });
    return flat;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Headers headers && values().equals(headers.values());
  }

  @Override
  public int hashCode() {
    return values().hashCode();
  }

  @Override
  public String toString() {
    return "Headers" + values();
  }

  /** Collects headers in arrival order. */
  public static final class Builder {
    private String[] names;
    private String[] values;
    private int size;

    /**
     * @param expected how many headers will be added (more may be)
     */
    public Builder(int expected) {
      names = new String[Math.max(1, expected)];
      values = new String[names.length];
    }

    /** Adds one header; the name in any case. */
    public Builder add(String name, String value) {
      if (names == null) {
        throw new IllegalStateException("these headers were built already");
      }
      if (size == names.length) {
        names = Arrays.copyOf(names, size * 2);
        values = Arrays.copyOf(values, size * 2);
      }
      names[size] = name.toLowerCase(Locale.ROOT);
      values[size] = value;
      size++;
      return this;
    }

    /** The headers; the builder takes no more after this. */
    public Headers build() {
      Headers headers = new Headers(names, values, size);
      names = null;
      values = null;
      return headers;
    }
  }
}

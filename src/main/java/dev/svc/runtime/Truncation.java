package dev.svc.runtime;

import java.util.Optional;

/**
 * What a cap cut from a list result, as the caller is told (docs/results.md): {@code "truncated":
 * true}, the rows returned, the cap that applied and, when the result can be continued, the cursor
 * of the next page.
 *
 * @param returnedRows rows in this page
 * @param limit the cap that cut it
 * @param nextCursor the cursor of the next page, for tools that can continue
 */
public record Truncation(int returnedRows, Limit limit, Optional<String> nextCursor) {

  /** The cap that cut a result. */
  public enum Limit {
    MAX_ROWS("max_rows"),
    MAX_BYTES("max_bytes");

    private final String wireName;

    Limit(String wireName) {
      this.wireName = wireName;
    }

    /** The setting's name, as the result says it: {@code max_rows} or {@code max_bytes}. */
    public String wireName() {
      return wireName;
    }

    /** The limit of a wire name, when it is one. */
    static Optional<Limit> of(String wireName) {
      for (Limit limit : values()) {
        if (limit.wireName.equals(wireName)) {
          return Optional.of(limit);
        }
      }
      return Optional.empty();
    }
  }
}

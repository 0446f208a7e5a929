package dev.svc.connector;

import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * What one call asks of a statement's run besides its values: which rows of the result it wants
 * (skip the first {@code skip}, then at most {@code take}), and whether the database itself must
 * refuse writes.
 *
 * <p>A connector reads no further than {@code skip + take} rows: a tool capped at 1000 rows asks
 * for 1001 (the probe row that tells a truncated result from one of exactly 1000 rows), and the
 * rest of the result is never fetched.
 *
 * @param skip rows to pass over first (a continuation cursor's position)
 * @param take the most rows to return after them; {@link Long#MAX_VALUE} for all
 * @param readOnly run the statement so that the database refuses any write
 * @param settings made in the statement's transaction first, undone when it ends (PostgreSQL {@code
 *     set_config(name, value, true)}); a connector that cannot refuses them
 */
public record StatementOptions(
    long skip, long take, boolean readOnly, List<SessionSetting> settings) {
  /** Every row, writes allowed: the statement as written. */
  public static final StatementOptions ALL = new StatementOptions(0, Long.MAX_VALUE, false);

  public StatementOptions {
    if (skip < 0 || take < 0) {
      throw new IllegalArgumentException("skip and take must not be negative");
    }
    settings = List.copyOf(settings);
  }

  public StatementOptions(long skip, long take, boolean readOnly) {
    this(skip, take, readOnly, List.of());
  }

  /**
   * One setting for one call: a name the compiler checked, and a value bound as a parameter.
   *
   * @param name e.g. {@code app.user_id}, or {@code role}
   */
  public record SessionSetting(String name, String value) {}

  /** Whether a window applies: some rows are skipped, or not all are taken. */
  public boolean windowed() {
    return skip > 0 || take != Long.MAX_VALUE;
  }

  /** The most rows read from the database: {@code skip + take}, saturated. */
  public long readLimit() {
    long limit = skip + take;
    return limit < 0 ? Long.MAX_VALUE : limit;
  }

  /**
   * The window applied to an already materialized result: an array loses its first {@code skip}
   * elements and everything past {@code take}; anything else is returned as it is.
   */
  public JsonNode window(JsonNode result) {
    if (!windowed() || !(result instanceof ArrayNode rows)) {
      return result;
    }
    ArrayNode kept = rows.arrayNode();
    long end = Math.min(rows.size(), readLimit());
    for (long i = skip; i < end; i++) {
      kept.add(rows.get((int) i));
    }
    return kept;
  }
}

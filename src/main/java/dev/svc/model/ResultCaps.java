package dev.svc.model;

/**
 * How much of a result one tool call returns ({@code max_rows}, {@code max_bytes}): global under
 * {@code tools} in the root file, per tool in its {@code config.terse}. {@code 0} means no cap. See
 * docs/results.md.
 *
 * @param maxRows the most rows (elements of a list result) returned
 * @param maxBytes the most bytes of the result's JSON (UTF-8) returned
 */
public record ResultCaps(long maxRows, long maxBytes) {
  /** 1000 rows: far more than a model reads with care, and a safe page for any client. */
  public static final long DEFAULT_MAX_ROWS = 1000;

  /** 1 MiB of JSON: agent transports break at about 1 MB; models lose the thread long before. */
  public static final long DEFAULT_MAX_BYTES = 1024 * 1024;

  public static final ResultCaps DEFAULTS = new ResultCaps(DEFAULT_MAX_ROWS, DEFAULT_MAX_BYTES);

  /** No cap at all. */
  public static final ResultCaps NONE = new ResultCaps(0, 0);

  public ResultCaps {
    if (maxRows < 0 || maxBytes < 0) {
      throw new IllegalArgumentException("caps must not be negative");
    }
  }

  /** Whether either cap applies. */
  public boolean any() {
    return maxRows > 0 || maxBytes > 0;
  }

  /**
   * The rows to ask a statement for: the cap and one more (the probe row that tells a truncated
   * result from one of exactly the cap), or {@link Long#MAX_VALUE} when rows are not capped.
   */
  public long probe() {
    return maxRows == 0 ? Long.MAX_VALUE : maxRows + 1;
  }
}

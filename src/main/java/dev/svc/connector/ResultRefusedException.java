package dev.svc.connector;

/**
 * A result stopped while it was read because it would not fit in memory ({@link ResultMemory}): it
 * passed the ceiling for one result, or the results of the calls in flight filled the budget. A
 * tool error, worded for the model: what happened and what to change.
 */
public final class ResultRefusedException extends StatementFailedException {
  /** Which limit stopped the result. */
  public enum Limit {
    /** The ceiling for one result. */
    CEILING,
    /** The budget of every call in flight. */
    BUDGET
  }

  private final Limit limit;

  private ResultRefusedException(String message, Limit limit) {
    super(message, false, null);
    this.limit = limit;
  }

  public Limit limit() {
    return limit;
  }

  static ResultRefusedException ceiling(long ceilingBytes) {
    return new ResultRefusedException(
        "the result passed svc's ceiling of "
            + size(ceilingBytes)
            + " for one result and was stopped; set max_rows or max_bytes on the tool (0"
            + " turns them off), filter the rows, or aggregate in the statement",
        Limit.CEILING);
  }

  static ResultRefusedException budget(long reservedBytes, long budgetBytes) {
    return new ResultRefusedException(
        "the server is holding "
            + size(reservedBytes)
            + " of results right now (its budget is "
            + size(budgetBytes)
            + ") and stopped this one; try again in a moment, or ask for fewer rows",
        Limit.BUDGET);
  }

  /** {@code 32 MiB}, or {@code 64 KiB} below a mebibyte (rounded up). */
  static String size(long bytes) {
    return bytes < ResultMemory.MIB
        ? (bytes + 1023) / 1024 + " KiB"
        : (bytes + ResultMemory.MIB - 1) / ResultMemory.MIB + " MiB";
  }
}

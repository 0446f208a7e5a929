package dev.svc.connector;

import dev.svc.call.ByteBudget;
import dev.svc.json.JsonFootprint;
import java.util.function.Function;

/**
 * What results may hold of the heap, for the whole process: a <b>ceiling</b> for one call's result
 * and a <b>budget</b> for the results of every call in flight together. Connectors count the rows
 * they keep as they read them ({@link Account#add}); a result that passes the ceiling, or a row
 * that the budget has no room for, stops the read with a {@link ResultRefusedException} (a tool
 * error the caller can act on) instead of letting a big result take the process down.
 *
 * <p><b>Sizes.</b> The budget is a quarter of the JVM's maximum heap ({@link Runtime#maxMemory()}),
 * the ceiling a quarter of the budget: 128 MiB and 32 MiB with the launcher's {@code -Xmx512m}. The
 * other three quarters of the heap are for everything else, including the copies a result makes
 * when it is answered (its JSON text), which happen after the call gave its bytes back.
 *
 * <p><b>What is counted</b> is an estimate of the heap the rows take as JSON trees ({@link
 * JsonFootprint}), not their size on the wire: a row of one small number takes ~230 bytes of heap
 * for ~15 bytes of JSON.
 *
 * <p><b>Accounts.</b> A tool call opens one account ({@link #open}) and binds it as {@link #CALL}
 * while it runs, so that its bytes stay reserved until the call is done, output transform and caps
 * included; a connector used without one (a start-up check, a test) opens its own for the
 * statement. Reservations are taken from the budget in steps ({@value #STEP_BYTES} bytes at least),
 * so the shared counter is touched about once per call for small results.
 */
public final class ResultMemory {
  static final long MIB = 1024L * 1024;

  /** The most the ceiling of one result gets, however big the heap. */
  static final long MAX_CEILING_BYTES = 1024 * MIB;

  /** The smallest reservation taken from the budget at once. */
  static final long STEP_BYTES = 16 * 1024;

  /**
   * The account of the tool call running on this thread. Bound by the tool invoker; not a
   * parameter, since a connector reached without one is safe: it opens an account of its own.
   */
  public static final ScopedValue<Account> CALL = ScopedValue.newInstance();

  private static final ResultMemory PROCESS = ofHeap(Runtime.getRuntime().maxMemory());

  private final long budgetBytes;
  private final long ceilingBytes;
  private final ByteBudget reserved;

  /**
   * @param budgetBytes the most bytes all calls in flight may hold together
   * @param ceilingBytes the most bytes one call's result may hold, at most {@code budgetBytes}
   */
  public ResultMemory(long budgetBytes, long ceilingBytes) {
    if (ceilingBytes < 1 || budgetBytes < ceilingBytes) {
      throw new IllegalArgumentException("the result ceiling must be positive and within budget");
    }
    this.budgetBytes = budgetBytes;
    this.reserved = new ByteBudget(budgetBytes);
    this.ceilingBytes = ceilingBytes;
  }

  /**
   * The sizes for a heap of {@code maxHeapBytes}: a quarter for the budget (at least 4 MiB), a
   * quarter of that for one result (at most 1 GiB).
   */
  static ResultMemory ofHeap(long maxHeapBytes) {
    long budget = Math.max(4 * MIB, maxHeapBytes / 4);
    return new ResultMemory(budget, Math.min(MAX_CEILING_BYTES, budget / 4));
  }

  /** The process's one instance, sized from the JVM's heap. */
  public static ResultMemory process() {
    return PROCESS;
  }

  /**
   * Runs {@code read} with the account of the tool call running on this thread ({@link #CALL}), or,
   * when none is bound, with an account of its own for this statement, closed after.
   */
  static <T> T counting(Function<Account, T> read) {
    if (CALL.isBound()) {
      return read.apply(CALL.get());
    }
    try (Account own = PROCESS.open()) {
      return read.apply(own);
    }
  }

  public long budgetBytes() {
    return budgetBytes;
  }

  public long ceilingBytes() {
    return ceilingBytes;
  }

  /** Bytes reserved by the calls in flight right now. */
  public long reservedBytes() {
    return reserved.takenBytes();
  }

  /** A new account for one call; close it when the call is done. */
  public Account open() {
    return new Account();
  }

  /**
   * The bytes one call holds. Used by one thread at a time (the call's); only the reservation it
   * takes from the shared budget is shared.
   */
  public final class Account implements AutoCloseable {
    private long used;
    private long held; // reserved from the budget: used <= held
    private long rowsRead;
    private boolean closed;

    private Account() {}

    /**
     * Counts {@code bytes} more of the call's result.
     *
     * @throws ResultRefusedException when the result passes the ceiling, or the budget has no room
     *     for it now; the bytes are not counted then
     */
    public void add(long bytes) {
      if (closed) {
        throw new IllegalStateException("the call's result account is closed");
      }
      long total = used + bytes;
      if (total > ceilingBytes) {
        throw ResultRefusedException.ceiling(ceilingBytes);
      }
      if (total > held) {
        long step = Math.max(total - held, Math.max(STEP_BYTES, held / 4));
        step = Math.min(step, ceilingBytes - held);
        if (!reserved.take(step)) {
          step = total - held; // no room for a whole step: perhaps for what is needed
          if (!reserved.take(step)) {
            throw ResultRefusedException.budget(reserved.takenBytes(), budgetBytes);
          }
        }
        held += step;
      }
      used = total;
    }

    /**
     * Marks that the driver has read one more row of the call's result, whether it is kept or
     * stepped over: a connection that bounds the bytes of one row as they arrive ({@link
     * MysqlReplyBound}) starts counting again.
     */
    void rowRead() {
      rowsRead++;
    }

    /** Rows the driver has read for the call so far ({@link #rowRead}). */
    long rowsRead() {
      return rowsRead;
    }

    /**
     * The ceiling of one result, for a connector that must bound what it reads in bytes, or a
     * refusal that names it.
     */
    public long ceilingBytes() {
      return ceilingBytes;
    }

    /** The refusal of a result that passed the ceiling where a driver measured it. */
    ResultRefusedException ceilingRefusal() {
      return ResultRefusedException.ceiling(ceilingBytes);
    }

    /** Bytes the call's result holds so far. */
    public long usedBytes() {
      return used;
    }

    /** Gives the call's bytes back to the budget (the result is no longer held). */
    @Override
    public void close() {
      if (!closed) {
        closed = true;
        reserved.give(held);
        held = 0;
        used = 0;
      }
    }
  }
}

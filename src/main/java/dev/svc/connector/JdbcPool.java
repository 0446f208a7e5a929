package dev.svc.connector;

import dev.svc.call.Deadline;
import dev.svc.call.Watchdog;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A small fixed pool of JDBC connections, each with its own prepared-statement cache ({@link
 * PooledConnection}).
 *
 * <ul>
 *   <li><b>Fixed size, opened up front.</b> {@link #fill()} opens every connection in parallel at
 *       start; a slot whose connection broke is reopened by the next caller that gets it.
 *   <li><b>Exclusive checkout, fair FIFO hand-off.</b> A fair {@link Semaphore} holds one permit
 *       per idle connection, so waiting callers are served in arrival order. Waiting virtual
 *       threads park; no lock is held while a connection is in use, so there is no convoy.
 *   <li><b>Validate on error, not on every borrow.</b> A connection is checked ({@link
 *       java.sql.Connection#isValid}) only when a call on it failed, when any connection of the
 *       pool was found broken since it last proved healthy (a restarted server breaks them all), or
 *       when it sat idle for more than {@value #IDLE_CHECK_SECONDS} s. Hot connections never pay a
 *       round trip.
 *   <li><b>Bounded wait.</b> A caller waits at most the time it is given (give or take the
 *       watchdog's {@value StatementDeadline#TICK_MILLIS} ms), then gets "pool exhausted" (a server
 *       fault, not a tool error).
 * </ul>
 *
 * A statement that failed because its connection broke is not replayed (it may have run); the
 * caller sees a {@link ConnectorUnavailableException} and later calls get fresh connections.
 */
final class JdbcPool {
  /** Limits of callers waiting for a connection (see {@link #awaitPermit}). */
  private static final Watchdog WAITS =
      new Watchdog(
          "svc-pool-waits", Duration.ofMillis(StatementDeadline.TICK_MILLIS), Runnable::run);

  static final int IDLE_CHECK_SECONDS = 30;
  private static final long IDLE_CHECK_NANOS = Duration.ofSeconds(IDLE_CHECK_SECONDS).toNanos();
  private static final int VALIDATION_TIMEOUT_SECONDS = 2;

  /** Opens one new connection. */
  @FunctionalInterface
  interface Opener {
    Connection open() throws SQLException;
  }

  /** A place for one connection; empty until opened, and again after its connection broke. */
  static final class Slot {
    private final AtomicReference<PooledConnection> current = new AtomicReference<>();
    private final AtomicReference<CompletableFuture<PooledConnection>> opening =
        new AtomicReference<>();
  }

  /** A borrowed connection; give it back with {@link #release}. */
  record Lease(Slot slot, PooledConnection connection) {}

  private final List<Slot> slots;
  private final ConcurrentLinkedQueue<Slot> idle = new ConcurrentLinkedQueue<>();
  private final Semaphore permits;
  private final Opener opener;
  private final String description;
  private final AtomicLong failures = new AtomicLong();
  private volatile boolean closed;

  /**
   * @param description what the pool serves, for messages: {@code postgres adapter `db`}
   */
  JdbcPool(int size, Opener opener, String description) {
    this.opener = opener;
    this.description = description;
    List<Slot> all = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      Slot slot = new Slot();
      all.add(slot);
      idle.add(slot);
    }
    this.slots = List.copyOf(all);
    this.permits = new Semaphore(size, true);
  }

  int size() {
    return slots.size();
  }

  /** Connections not borrowed right now. */
  int available() {
    return permits.availablePermits();
  }

  /** Callers waiting for a connection. */
  int waiting() {
    return permits.getQueueLength();
  }

  /**
   * Opens the connection of every empty slot, in parallel on virtual threads. The futures fail with
   * the driver's exception; a connection that opens after the pool closed is closed.
   */
  List<CompletableFuture<PooledConnection>> fill() {
    List<CompletableFuture<PooledConnection>> opening = new ArrayList<>();
    for (Slot slot : slots) {
      if (slot.current.get() == null) {
        opening.add(open(slot));
      }
    }
    return opening;
  }

  /**
   * Borrows a connection for exclusive use, opening it first if its slot is empty.
   *
   * @param maxWait the longest to wait for a free connection, and never past {@code deadline}
   * @param deadline the call's, by which an opening connection must be ready; a driver that hangs
   *     (a server that accepts but never answers) is left to finish in the background and fill the
   *     slot for a later caller
   * @throws ConnectorUnavailableException when none frees up in time ("pool exhausted", naming the
   *     wait the call was given) or the pool is closed
   * @throws SQLException when a connection had to be opened and could not be
   * @throws TimeoutException when a connection had to be opened and was not ready by the deadline
   */
  Lease borrow(Duration maxWait, Deadline deadline)
      throws SQLException, InterruptedException, TimeoutException {
    if (closed) {
      throw closedException();
    }
    // with callers waiting, a zero wait, not tryAcquire(): that one would barge ahead of them;
    // with none, tryAcquire() (the timed one checks for an interrupt first, which takes a lock
    // on a virtual thread: 1.5% of a SQLite tool call's CPU)
    if (!(!permits.hasQueuedThreads() && permits.tryAcquire())
        && !permits.tryAcquire(0, TimeUnit.NANOSECONDS)) {
      awaitPermit(
          Math.min(maxWait.toNanos(), deadline.remainingNanos()), min(maxWait, deadline.timeout()));
    }
    Slot slot = closed ? null : idle.poll();
    if (slot == null) {
      permits.release(); // pass the wake-up on to the next waiter, which sees the pool closed
      throw closedException();
    }
    try {
      PooledConnection connection = slot.current.get();
      if (connection != null
          && needsCheck(connection)
          && !connection.isValid(VALIDATION_TIMEOUT_SECONDS)) {
        discard(slot, connection);
        connection = null;
      }
      if (connection == null) {
        connection = await(open(slot), deadline);
      }
      return new Lease(slot, connection);
    } catch (SQLException | InterruptedException | TimeoutException | RuntimeException | Error e) {
      giveBack(slot);
      throw e;
    }
  }

  /**
   * Waits, in arrival order, for a permit at most {@code waitNanos}; {@code given} is the wait the
   * call was given, for the message when none comes. The wait is untimed and the {@link #WAITS}
   * watchdog interrupts it at the limit: a timed park of a virtual thread schedules (and cancels) a
   * timer task every time, which cost a tenth of the CPU at 64 concurrent calls on a pool of 8.
   */
  private void awaitPermit(long waitNanos, Duration given) throws InterruptedException {
    if (waitNanos <= 0) {
      throw exhausted(given);
    }
    Thread waiter = Thread.currentThread();
    AtomicBoolean settled = new AtomicBoolean(); // by the waiter (permit or cancel) or the limit
    AtomicBoolean timedOut = new AtomicBoolean();
    Watchdog.Armed limit =
        WAITS.arm(
            System.nanoTime() + waitNanos,
            Optional.empty(),
            () -> {
              if (settled.compareAndSet(false, true)) {
                timedOut.set(true);
                waiter.interrupt();
              }
            });
    boolean acquired = false;
    try {
      permits.acquire();
      acquired = true;
    } catch (InterruptedException e) {
      if (!timedOut.get()) {
        settled.set(true);
        throw e; // the call was cancelled
      }
    } finally {
      limit.close(); // no interrupt from the limit after this
    }
    if (acquired && !settled.compareAndSet(false, true)) {
      // the limit struck just as the permit came: consume its interrupt, pass the permit on
      Thread.interrupted();
      permits.release();
      acquired = false;
    }
    if (!acquired) {
      throw exhausted(given);
    }
  }

  private ConnectorUnavailableException exhausted(Duration given) {
    return new ConnectorUnavailableException(
        "pool exhausted: all "
            + slots.size()
            + " connections of "
            + description
            + " stayed busy for "
            + JdbcFailures.words(given));
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static PooledConnection await(
      CompletableFuture<PooledConnection> opening, Deadline deadline)
      throws SQLException, InterruptedException, TimeoutException {
    try {
      return opening.get(Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      switch (e.getCause()) {
        case SQLException sql -> throw sql;
        case RuntimeException runtime -> throw runtime;
        case Error error -> throw error;
        default -> throw new SQLException(e.getCause());
      }
    }
  }

  /**
   * Opens a connection for {@code slot} on a virtual thread, or joins the opening already under
   * way, so a hanging driver never holds more than one thread per slot.
   */
  private CompletableFuture<PooledConnection> open(Slot slot) {
    CompletableFuture<PooledConnection> future = new CompletableFuture<>();
    CompletableFuture<PooledConnection> running = slot.opening.compareAndExchange(null, future);
    if (running != null) {
      return running;
    }
    Thread.ofVirtual()
        .name("svc-pool-open")
        .start(() -> {
          try {
            PooledConnection connection = install(slot, opener.open());
            slot.opening.set(null);
            future.complete(connection);
          } catch (Throwable e) {
            slot.opening.set(null);
            future.completeExceptionally(e);
          }
        });
    return future;
  }

  /**
   * Gives a borrowed connection back.
   *
   * @param healthy false when its connection broke: it is closed, its slot reopens on next use, and
   *     every other connection is validated before its next use
   */
  void release(Lease lease, boolean healthy) {
    if (healthy) {
      lease.connection().markUsed(failures.get());
    } else {
      failures.incrementAndGet();
      discard(lease.slot(), lease.connection());
    }
    if (closed) {
      discard(lease.slot(), lease.slot().current.get());
      permits.release();
      return;
    }
    giveBack(lease.slot());
  }

  /**
   * Closes idle connections now and borrowed ones when they come back; waiting callers fail.
   * Idempotent; never throws.
   */
  void close() {
    closed = true;
    discardIdle();
    permits.release(); // wakes one waiter, which wakes the next (see borrow)
  }

  private void discardIdle() {
    Slot slot;
    while ((slot = idle.poll()) != null) {
      discard(slot, slot.current.get());
    }
  }

  private boolean needsCheck(PooledConnection connection) {
    return connection.checkedAtFailureCount() < failures.get()
        || System.nanoTime() - connection.lastUsedNanos() > IDLE_CHECK_NANOS;
  }

  /** Puts a new connection in an empty slot; if another got there first, uses that one. */
  private PooledConnection install(Slot slot, Connection connection) {
    PooledConnection fresh = new PooledConnection(connection, failures.get());
    if (!slot.current.compareAndSet(null, fresh)) {
      fresh.close();
      fresh = slot.current.get();
    }
    if (closed || fresh == null) {
      discard(slot, fresh);
      throw closedException();
    }
    return fresh;
  }

  private static void discard(Slot slot, PooledConnection connection) {
    if (connection != null && slot.current.compareAndSet(connection, null)) {
      connection.close();
    }
  }

  private void giveBack(Slot slot) {
    idle.offer(slot);
    permits.release();
    if (closed) {
      discardIdle(); // raced with close(): nothing may stay open
    }
  }

  private ConnectorUnavailableException closedException() {
    return new ConnectorUnavailableException(description + " is closed");
  }
}

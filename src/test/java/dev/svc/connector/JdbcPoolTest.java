package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Deadline;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The pool with stand-in connections: no database, no I/O. */
class JdbcPoolTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  /** A stand-in connection that records what the pool does with it. */
  static final class Fake {
    final int id;
    volatile boolean valid = true;
    final AtomicInteger validations = new AtomicInteger();
    volatile boolean closed;
    final Connection connection;

    Fake(int id) {
      this.id = id;
      this.connection =
          (Connection)
              Proxy.newProxyInstance(
                  Connection.class.getClassLoader(),
                  new Class<?>[] {Connection.class},
                  (proxy, method, args) ->
                      switch (method.getName()) {
                        case "isValid" -> {
                          validations.incrementAndGet();
                          yield valid;
                        }
                        case "close" -> {
                          closed = true;
                          yield null;
                        }
                        case "isClosed" -> closed;
                        case "hashCode" -> id;
                        case "equals" -> proxy == args[0];
                        case "toString" -> "fake " + id;
                        default -> throw new UnsupportedOperationException(method.getName());
                      });
    }
  }

  private final List<Fake> opened = new CopyOnWriteArrayList<>();

  private static Deadline far() {
    return Deadline.after(WAIT);
  }

  private JdbcPool pool(int size) {
    return new JdbcPool(
        size,
        () -> {
          Fake fake = new Fake(opened.size());
          opened.add(fake);
          return fake.connection;
        },
        "test adapter `db`");
  }

  @Test
  void connectionsOpenOnFirstUseAndAreReused() throws Exception {
    JdbcPool pool = pool(2);
    for (int i = 0; i < 5; i++) {
      JdbcPool.Lease lease = pool.borrow(WAIT, far());
      pool.release(lease, true);
    }

    assertThat(opened).hasSize(2); // FIFO: both slots take turns
    assertThat(opened).allSatisfy(fake -> assertThat(fake.validations).hasValue(0));
    assertThat(pool.available()).isEqualTo(2);
  }

  @Test
  void fillOpensEverySlot() {
    JdbcPool pool = pool(4);

    CompletableFuture.allOf(pool.fill().toArray(CompletableFuture[]::new)).join();

    assertThat(opened).hasSize(4);
    assertThat(pool.fill()).isEmpty();
  }

  @Test
  void aCallerThatFindsNoFreeConnectionGetsPoolExhausted() throws Exception {
    JdbcPool pool = pool(1);
    JdbcPool.Lease held = pool.borrow(WAIT, far());

    assertThatThrownBy(() -> pool.borrow(Duration.ofMillis(20), far()))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage("pool exhausted: all 1 connections of test adapter `db` stayed busy for 20 ms");
    pool.release(held, true);
    pool.release(pool.borrow(WAIT, far()), true);
  }

  @Test
  void aCancelledWaiterIsInterruptedNotExhaustedAndThePoolKeepsItsConnection() throws Exception {
    JdbcPool pool = pool(1);
    JdbcPool.Lease held = pool.borrow(WAIT, far());
    java.util.concurrent.CompletableFuture<Throwable> outcome =
        new java.util.concurrent.CompletableFuture<>();
    Thread waiter =
        Thread.ofVirtual()
            .start(() -> {
              try {
                pool.release(pool.borrow(WAIT, far()), true);
                outcome.complete(null);
              } catch (Throwable t) {
                outcome.complete(t);
              }
            });
    awaitWaiting(pool, 1);
    waiter.interrupt();
    assertThat(outcome.get(5, java.util.concurrent.TimeUnit.SECONDS))
        .isInstanceOf(InterruptedException.class);
    pool.release(held, true);
    pool.release(pool.borrow(WAIT, far()), true); // the connection is still there
  }

  @Test
  void manyShortWaitsThatRunOutAllReportExhaustedAndLeaveThePoolWhole() throws Exception {
    JdbcPool pool = pool(1);
    JdbcPool.Lease held = pool.borrow(WAIT, far());
    for (int i = 0; i < 20; i++) {
      assertThatThrownBy(() -> pool.borrow(Duration.ofMillis(1), far()))
          .isInstanceOf(ConnectorUnavailableException.class);
      assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
    pool.release(held, true);
    pool.release(pool.borrow(WAIT, far()), true);
  }

  @Test
  void waitingCallersAreServedInArrivalOrder() throws Exception {
    JdbcPool pool = pool(1);
    JdbcPool.Lease held = pool.borrow(WAIT, far());
    List<String> order = new CopyOnWriteArrayList<>();
    Thread first = waiter(pool, "first", order);
    awaitWaiting(pool, 1);
    Thread second = waiter(pool, "second", order);
    awaitWaiting(pool, 2);
    Thread third = waiter(pool, "third", order);
    awaitWaiting(pool, 3);

    pool.release(held, true);
    first.join();
    second.join();
    third.join();

    assertThat(order).containsExactly("first", "second", "third");
  }

  private static Thread waiter(JdbcPool pool, String name, List<String> order) {
    return Thread.ofVirtual()
        .start(() -> {
          try {
            JdbcPool.Lease lease = pool.borrow(WAIT, far());
            order.add(name);
            pool.release(lease, true);
          } catch (SQLException | InterruptedException | TimeoutException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private static void awaitWaiting(JdbcPool pool, int callers) throws InterruptedException {
    while (pool.waiting() < callers) {
      Thread.sleep(1);
    }
  }

  @Test
  void aBrokenConnectionIsClosedAndReplacedOnNextUse() throws Exception {
    JdbcPool pool = pool(1);
    JdbcPool.Lease lease = pool.borrow(WAIT, far());
    pool.release(lease, false);

    assertThat(opened.getFirst().closed).isTrue();
    JdbcPool.Lease next = pool.borrow(WAIT, far());
    assertThat(opened).hasSize(2);
    assertThat(opened.get(1).closed).isFalse();
    pool.release(next, true);
  }

  @Test
  void afterAFailureTheOtherConnectionsAreValidatedOnce() throws Exception {
    JdbcPool pool = pool(2);
    JdbcPool.Lease a = pool.borrow(WAIT, far());
    JdbcPool.Lease b = pool.borrow(WAIT, far());
    pool.release(a, true);
    pool.release(b, false); // b broke: a may have broken too (a restarted server)
    opened.getFirst().valid = false;

    JdbcPool.Lease next = pool.borrow(WAIT, far()); // slot a: validated, found broken, reopened

    assertThat(opened.getFirst().validations).hasValue(1);
    assertThat(opened.getFirst().closed).isTrue();
    assertThat(opened).hasSize(3);
    pool.release(next, true);
    JdbcPool.Lease again = pool.borrow(WAIT, far()); // slot b: reopened without validation
    pool.release(again, true);
    JdbcPool.Lease third = pool.borrow(WAIT, far()); // slot a's new connection is healthy: no check
    pool.release(third, true);
    assertThat(opened).hasSize(4);
    assertThat(opened.subList(2, 4)).allSatisfy(f -> assertThat(f.validations).hasValue(0));
  }

  @Test
  void anOpeningThatOutlivesTheDeadlineFillsTheSlotForALaterCaller() throws Exception {
    CountDownLatch serverAnswers = new CountDownLatch(1);
    AtomicInteger opens = new AtomicInteger();
    JdbcPool pool =
        new JdbcPool(
            1,
            () -> {
              opens.incrementAndGet();
              try {
                serverAnswers.await();
              } catch (InterruptedException e) {
                throw new SQLException(e);
              }
              return new Fake(0).connection;
            },
            "test adapter `db`");

    assertThatThrownBy(() -> pool.borrow(WAIT, Deadline.after(Duration.ZERO)))
        .isInstanceOf(TimeoutException.class);
    assertThatThrownBy(() -> pool.borrow(WAIT, Deadline.after(Duration.ZERO)))
        .isInstanceOf(TimeoutException.class); // joins the opening under way
    assertThat(pool.available()).isEqualTo(1);
    serverAnswers.countDown();

    JdbcPool.Lease lease = pool.borrow(WAIT, far());
    pool.release(lease, true);
    assertThat(opens).hasValue(1);
  }

  @Test
  void aConnectionThatCannotOpenGivesItsSlotBack() {
    JdbcPool pool =
        new JdbcPool(
            1,
            () -> {
              throw new SQLException("Connection refused", "08001");
            },
            "test adapter `db`");

    assertThatThrownBy(() -> pool.borrow(WAIT, far())).isInstanceOf(SQLException.class);
    assertThatThrownBy(() -> pool.borrow(WAIT, far())).isInstanceOf(SQLException.class);
    assertThat(pool.available()).isEqualTo(1);
  }

  @Test
  void closingClosesIdleConnectionsNowAndBorrowedOnesOnReturn() throws Exception {
    JdbcPool pool = pool(2);
    JdbcPool.Lease held = pool.borrow(WAIT, far());
    pool.release(pool.borrow(WAIT, far()), true);
    Fake idle = opened.get(1);
    Fake busy = opened.get(0);

    pool.close();
    pool.close();

    assertThat(idle.closed).isTrue();
    assertThat(busy.closed).isFalse();
    pool.release(held, true);
    assertThat(busy.closed).isTrue();
    assertThatThrownBy(() -> pool.borrow(WAIT, far()))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage("test adapter `db` is closed");
  }

  @Test
  void closingWakesCallersWaitingForAConnection() throws Exception {
    JdbcPool pool = pool(1);
    JdbcPool.Lease held = pool.borrow(WAIT, far());
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    List<Thread> waiters =
        List.of(waiterExpectingFailure(pool, failures), waiterExpectingFailure(pool, failures));
    awaitWaiting(pool, 2);

    pool.close();
    for (Thread waiter : waiters) {
      waiter.join();
    }

    assertThat(failures)
        .hasSize(2)
        .allSatisfy(f -> assertThat(f).hasMessage("test adapter `db` is closed"));
    pool.release(held, true);
  }

  private static Thread waiterExpectingFailure(JdbcPool pool, List<Throwable> failures) {
    return Thread.ofVirtual()
        .start(() -> {
          try {
            pool.release(pool.borrow(WAIT, far()), true);
          } catch (ConnectorUnavailableException e) {
            failures.add(e);
          } catch (SQLException | InterruptedException | TimeoutException e) {
            throw new IllegalStateException(e);
          }
        });
  }
}

package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.call.Deadline;
import dev.svc.compile.StatementFixture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What the JDBC connector adds to {@link SqlConnectorContract}: an interrupted call is stopped at
 * the database, many calls share a small pool, and a pool that stays busy is reported as exhausted.
 */
abstract class JdbcConnectorContract extends SqlConnectorContract {

  /**
   * A query counting this database's statements that run {@link #sleep}{@code (600)}, other than
   * itself; empty where statements run in the caller's own thread (SQLite).
   */
  abstract Optional<String> countLongSleeps();

  /**
   * {@link #numbers}{@code (total)} whose rows past {@code n} fail at the database when it produces
   * them: a read that goes further than it should fails.
   */
  abstract String numbersFailingPast(long n, long total);

  @Test
  void theDatabaseProducesNoRowPastTheWindow() {
    String statement = numbersFailingPast(1500, 1_000_000);

    JsonNode page = run(statement, window(0, 1001));

    assertThat(page).hasSize(1001);
    assertThat(page.get(1000).get("g").asLong()).isEqualTo(1001);
    assertThatThrownBy(() -> run(statement, window(1490, 20))) // the rows past 1500 do fail
        .isInstanceOf(StatementFailedException.class)
        .isNotInstanceOf(ResultRefusedException.class);
    assertJson(run(numbers(2), window(0, 1001)), "[{\"g\": 1}, {\"g\": 2}]");
  }

  @Test
  void aDeepPageStepsOverTheRowsBeforeItWithoutKeepingThem() {
    ResultMemory small = new ResultMemory(4 * MIB, MIB);

    JsonNode page = within(small, numbersFailingPast(200_003, 1_000_000), window(200_000, 3));

    assertJson(page, "[{\"g\": 200001}, {\"g\": 200002}, {\"g\": 200003}]");
  }

  @Test
  void aDeepPageOfAReadOnlyStatementLeavesItsConnectionWritable() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));

    assertJson(
        run(numbers(300_000), new StatementOptions(200_000, 2, true)),
        "[{\"g\": 200001}, {\"g\": 200002}]");
    run("UPDATE items SET note = 'after' WHERE id = 1", Map.of());

    assertCommittedNote("after");
  }

  @Test
  void aResultStoppedHalfReadLeavesItsConnectionFitForTheNextCall() {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));
    ResultMemory small = new ResultMemory(4 * MIB, MIB);

    assertThatThrownBy(() -> within(small, numbers(1_000_000), StatementOptions.ALL))
        .isInstanceOf(ResultRefusedException.class);
    run("UPDATE items SET note = 'seen' WHERE id = 1", Map.of());

    assertJson(run(numbers(3), window(0, 1001)), "[{\"g\": 1}, {\"g\": 2}, {\"g\": 3}]");
    assertCommittedNote("seen");
  }

  /** Item 1's note as another connector sees it: committed, so auto-commit was back on. */
  private void assertCommittedNote(String note) {
    Connector other = Connectors.open(adapter(Map.of()));
    try {
      assertJson(
          other.execute(
              StatementFixture.sql(kind(), "SELECT note FROM items WHERE id = 1"),
              Map.of(),
              Deadline.after(TIMEOUT)),
          "[{\"note\": \"" + note + "\"}]");
    } finally {
      other.close();
    }
  }

  @Test
  void anInterruptedCallIsCancelledAtTheDatabaseAndTheConnectorRecovers() throws Exception {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "2")));
    connector.check(
        Deadline.after(TIMEOUT)); // so the call below does not wait for a connection to open
    JdbcConnector jdbc = (JdbcConnector) connector;
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    Thread call =
        Thread.ofVirtual()
            .start(() -> {
              try {
                connector.execute(
                    StatementFixture.sql(kind(), sleep(600)), Map.of(), Deadline.after(TIMEOUT));
              } catch (RuntimeException e) {
                failures.add(e);
              }
            });
    awaitRunningSleeps(jdbc, 1);

    call.interrupt();
    call.join();

    assertThat(failures).hasSize(1);
    assertThat(failures.getFirst())
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("the call was cancelled before the statement finished");
    awaitRunningSleeps(jdbc, 0); // the database stopped it: it was not left running for 10 min
    assertJson(run("SELECT 4 AS four", Map.of()), "[{\"four\": 4}]");
  }

  /**
   * Waits until {@code count} sleeps run at the database (or, for SQLite, a connection is busy).
   */
  private void awaitRunningSleeps(JdbcConnector jdbc, int count) throws InterruptedException {
    long giveUp = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < giveUp) {
      long running =
          countLongSleeps().isPresent()
              ? run(countLongSleeps().get(), Map.of()).get(0).get("n").asLong()
              : jdbc.poolSize() - jdbc.available();
      if (running == count) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("expected " + count + " running sleeps");
  }

  @Test
  void manyConcurrentCallsShareASmallPool() throws Exception {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "4")));
    connector.check(Deadline.after(TIMEOUT));
    List<Future<JsonNode>> calls = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 200; i++) {
        long id = i % 3 + 1;
        calls.add(
            threads.submit(
                () -> run("SELECT id FROM items WHERE id = {{ inputs.id }}", values("id", id))));
      }
    }
    for (int i = 0; i < calls.size(); i++) {
      assertJson(calls.get(i).get(), "[{\"id\": " + (i % 3 + 1) + "}]");
    }
    assertThat(((JdbcConnector) connector).available()).isEqualTo(4);
  }

  @Test
  void aCallThatFindsEveryConnectionBusyFailsWithPoolExhausted() throws Exception {
    connector.close();
    connector = Connectors.open(adapter(Map.of("max_connections", "1")));
    JdbcConnector jdbc = (JdbcConnector) connector;
    Thread slow =
        Thread.ofVirtual()
            .start(() -> {
              try {
                connector.execute(
                    StatementFixture.sql(kind(), sleep(20)),
                    Map.of(),
                    Deadline.after(Duration.ofSeconds(3)));
              } catch (StatementFailedException expected) {
                // its deadline ends it
              }
            });
    long giveUp = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (jdbc.available() > 0 && System.nanoTime() < giveUp) {
      Thread.sleep(5);
    }

    assertThatThrownBy(() ->
            connector.execute(
                StatementFixture.sql(kind(), "SELECT 1"),
                Map.of(),
                Deadline.after(Duration.ofMillis(200))))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "pool exhausted: all 1 connections of "
                + kind().wireName()
                + " adapter `db` stayed busy for 200 ms");
    slow.join();
    assertJson(run("SELECT 3 AS three", Map.of()), "[{\"three\": 3}]");
  }
}

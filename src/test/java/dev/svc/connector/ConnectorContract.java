package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.call.Deadline;
import dev.svc.compile.StatementFixture;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What every connector does, whatever its statements look like: it checks and closes cleanly, names
 * an input without a value, reports a rejected statement as one line, explains an unreachable
 * server in plain words, and serves concurrent calls. Implemented by the {@code *IT} of connectors
 * that are not SQL ({@link SqlConnectorContract} covers those).
 */
interface ConnectorContract {
  Duration TIMEOUT = Duration.ofSeconds(30);

  ConnectorKind kind();

  /** An adapter named {@code db} on the test server. */
  ResolvedAdapter adapter(Map<String, String> options);

  /** An adapter named {@code db} whose connection string names {@code 127.0.0.1:port}. */
  ResolvedAdapter adapterAt(int port);

  /** A statement that succeeds, answering {@code expected()}. */
  String trivialStatement();

  JsonNode trivialResult();

  /** A statement using input {@code value} (a string) that succeeds. */
  String statementUsingValue();

  /** A statement the server rejects, and a part of the message it gives. */
  String rejectedStatement();

  String rejectedMessagePart();

  default Statement statement(String source) {
    return StatementFixture.compile(kind(), source);
  }

  @Test
  default void checkSucceedsAndCloseIsIdempotent() {
    Connector connector = Connectors.open(adapter(Map.of()));
    connector.check(Deadline.after(TIMEOUT));
    assertThat(connector.execute(statement(trivialStatement()), Map.of(), Deadline.after(TIMEOUT)))
        .isEqualTo(trivialResult());
    connector.close();
    connector.close();

    assertThatThrownBy(() ->
            connector.execute(statement(trivialStatement()), Map.of(), Deadline.after(TIMEOUT)))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(kind().wireName() + " adapter `db` is closed");
  }

  @Test
  default void poolUsageIsReportedAndEveryConnectionGoesBackAfterCalls() {
    try (Connector connector = Connectors.open(adapter(Map.of()))) {
      connector.check(Deadline.after(TIMEOUT));
      for (int i = 0; i < 3; i++) {
        connector.execute(statement(trivialStatement()), Map.of(), Deadline.after(TIMEOUT));
      }
      PoolUsage usage = connector.pool().orElseThrow();
      assertThat(usage.used()).isZero();
      assertThat(usage.idle()).isPositive();
      assertThat(usage.max()).isGreaterThanOrEqualTo(usage.idle());
      assertThat(usage.pending()).isZero();
    }
  }

  @Test
  default void anInputWithoutAValueIsNamedAndNothingRuns() {
    try (Connector connector = Connectors.open(adapter(Map.of()))) {
      assertThatThrownBy(() ->
              connector.execute(
                  statement(statementUsingValue()), Map.of(), Deadline.after(TIMEOUT)))
          .isInstanceOf(StatementFailedException.class)
          .hasMessage("the statement uses input `value`, which has no value");
    }
  }

  @Test
  default void aRejectedStatementIsAOneLineToolError() {
    try (Connector connector = Connectors.open(adapter(Map.of()))) {
      StatementFailedException failure =
          catchThrowableOfType(
              StatementFailedException.class,
              () ->
                  connector.execute(
                      statement(rejectedStatement()), Map.of(), Deadline.after(TIMEOUT)));

      assertThat(failure.timedOut()).isFalse();
      assertThat(failure.getMessage()).contains(rejectedMessagePart()).doesNotContain("\n");
      assertThat(
              connector.execute(statement(trivialStatement()), Map.of(), Deadline.after(TIMEOUT)))
          .isEqualTo(trivialResult());
    }
  }

  @Test
  default void anUnreachableServerFailsTheCheckInPlainWords() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    try (Connector connector = Connectors.open(adapterAt(port))) {
      assertThatThrownBy(() -> connector.check(Deadline.after(Duration.ofSeconds(5))))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessageStartingWith("cannot connect to " + kind().wireName() + " adapter `db` at ")
          .hasMessageContaining("127.0.0.1:" + port)
          .hasMessageEndingWith("connection refused");
    }
  }

  @Test
  default void manyConcurrentCallsAllSucceed() throws Exception {
    try (Connector connector = Connectors.open(adapter(Map.of()))) {
      connector.check(Deadline.after(TIMEOUT));
      assertManyConcurrentCallsSucceed(
          connector,
          statement(trivialStatement()),
          result -> assertThat(result).isEqualTo(trivialResult()));
    }
  }

  /**
   * Runs {@code statement} 100 times at once, each call on its own virtual thread, and checks every
   * result. Shared with connectors tested through {@link SqlConnectorContract}.
   */
  static void assertManyConcurrentCallsSucceed(
      Connector connector, Statement statement, Consumer<JsonNode> check) throws Exception {
    List<Future<JsonNode>> calls = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 100; i++) {
        calls.add(
            threads.submit(() -> connector.execute(statement, Map.of(), Deadline.after(TIMEOUT))));
      }
    }
    for (Future<JsonNode> call : calls) {
      check.accept(call.get());
    }
  }
}

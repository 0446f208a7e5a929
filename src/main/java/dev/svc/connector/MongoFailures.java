package dev.svc.connector;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoTimeoutException;
import dev.svc.SvcException;
import java.time.Duration;
import java.util.Optional;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * What a failure of the MongoDB driver means for a call: a {@link StatementFailedException} when
 * the caller can act on it (the server rejected the command, it ran past its deadline, the call was
 * cancelled), a {@link ConnectorUnavailableException} when the server cannot be reached. Pure: the
 * connector passes in what it knows (the monitor's last failure, whether its thread was
 * interrupted), so every branch is testable without a server.
 *
 * <p>Messages name the adapter and its host, never the connection string or a bound value.
 */
final class MongoFailures {
  private final String description;
  private final String location;
  private final String authenticationFailed;

  /**
   * @param description the adapter as messages name it ({@code mongodb adapter `crm`})
   */
  MongoFailures(String description, MongoSettings settings) {
    this.description = description;
    this.location = settings.location();
    this.authenticationFailed =
        "authentication failed" + settings.user().map(u -> " for user `" + u + "`").orElse("");
  }

  /**
   * The failure of the start-up check: always the server's.
   *
   * @param heartbeat why the driver's monitor last failed to reach a server, if it did
   */
  ConnectorUnavailableException ofCheck(
      MongoException e, Duration timeout, Optional<Throwable> heartbeat) {
    return switch (e) {
      case MongoTimeoutException _ ->
          new ConnectorUnavailableException(
              cannotConnect()
                  + unreachable(heartbeat)
                      .orElse("no server answered within " + JdbcFailures.words(timeout)),
              e);
      case MongoSecurityException _ ->
          new ConnectorUnavailableException(cannotConnect() + authenticationFailed, e);
      case MongoInterruptedException _ ->
          new ConnectorUnavailableException("interrupted while connecting to " + description, e);
      default ->
          new ConnectorUnavailableException(
              cannotConnect()
                  + NetworkFailures.reason(e).orElse(SqlDialect.firstLine(e.getMessage())),
              e);
    };
  }

  /**
   * The failure of a command.
   *
   * @param timeout the call's time-out, for the message of a command that ran past it
   * @param heartbeat why the driver's monitor last failed to reach a server, if it did: a time-out
   *     then means the server is gone, not that the command was slow
   * @param interrupted whether the calling thread was interrupted: its call was cancelled, and the
   *     driver's failure is only the consequence
   */
  SvcException ofCommand(
      MongoException e, Duration timeout, Optional<Throwable> heartbeat, boolean interrupted) {
    return switch (e) {
      case MongoCommandException c -> new StatementFailedException(commandFailed(c), false, e);
      case MongoOperationTimeoutException _,
          MongoExecutionTimeoutException _,
          MongoSocketReadTimeoutException _ ->
          interrupted ? cancelled(e) : timedOut(e, timeout, heartbeat);
      case MongoInterruptedException _ -> cancelled(e);
      case MongoTimeoutException t -> waitedInVain(t, heartbeat);
      case MongoSecurityException _ ->
          new ConnectorUnavailableException(cannotConnect() + authenticationFailed, e);
      case MongoSocketException _ when interrupted -> cancelled(e);
      case MongoSocketException _ -> NetworkFailures.lostConnection(description, location, e);
      default ->
          interrupted
              ? cancelled(e)
              : new ConnectorUnavailableException(
                  description + " failed: " + SqlDialect.firstLine(e.getMessage()), e);
    };
  }

  /** A command past its deadline; or, when the monitor lost the server, the server's fault. */
  private SvcException timedOut(MongoException e, Duration timeout, Optional<Throwable> heartbeat) {
    Optional<String> unreachable = unreachable(heartbeat);
    if (unreachable.isPresent()) {
      return new ConnectorUnavailableException(cannotConnect() + unreachable.get(), e);
    }
    return new StatementFailedException(JdbcFailures.statementTimedOut(timeout), true, e);
  }

  /** No connection became available: every one stayed busy, or no server answered. */
  private ConnectorUnavailableException waitedInVain(
      MongoTimeoutException e, Optional<Throwable> heartbeat) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (message.contains("connection from the pool")
        || message.contains("waiting for a connection")) {
      return new ConnectorUnavailableException(
          "pool exhausted: every connection of " + description + " stayed busy", e);
    }
    return new ConnectorUnavailableException(
        cannotConnect() + unreachable(heartbeat).orElse("no server answered"), e);
  }

  /** The call ended because its caller gave up on it. */
  static StatementFailedException cancelled(Throwable cause) {
    return new StatementFailedException(
        "the call was cancelled before the command finished", false, cause);
  }

  /**
   * The failure a write command reports in its reply rather than as an error (failed documents, an
   * unmet write concern); empty when the reply reports none.
   */
  static Optional<StatementFailedException> ofWriteReply(String command, BsonDocument reply) {
    BsonValue errors = reply.get("writeErrors");
    if (errors != null && errors.isArray() && !errors.asArray().isEmpty()) {
      BsonDocument first = errors.asArray().getFirst().asDocument();
      int more = errors.asArray().size() - 1;
      String written =
          reply.isNumber("n") ? " after writing " + reply.getNumber("n").longValue() : "";
      return Optional.of(
          new StatementFailedException(
              "`"
                  + command
                  + "` reported a write error"
                  + written
                  + ": "
                  + serverMessage(errorMessage(first))
                  + (more > 0 ? " (and " + more + " more)" : ""),
              false,
              null));
    }
    BsonValue concern = reply.get("writeConcernError");
    if (concern != null && concern.isDocument()) {
      return Optional.of(
          new StatementFailedException(
              "`"
                  + command
                  + "` did not meet its write concern: "
                  + serverMessage(errorMessage(concern.asDocument())),
              false,
              null));
    }
    return Optional.empty();
  }

  private static String errorMessage(BsonDocument error) {
    return error.getString("errmsg", new BsonString("")).getValue();
  }

  private static String commandFailed(MongoCommandException e) {
    String name = e.getErrorCodeName();
    String message = serverMessage(e.getErrorMessage());
    return name == null || name.isBlank() ? message : message + " (" + name + ")";
  }

  /**
   * The server's message, one line, without the duplicate key it quotes ({@code dup key: {…}}):
   * that is a bound value.
   */
  static String serverMessage(String message) {
    String line = SqlDialect.firstLine(message);
    int key = line.indexOf(" dup key:");
    return key < 0 ? line : line.substring(0, key);
  }

  private String cannotConnect() {
    return "cannot connect to " + description + " at " + location + ": ";
  }

  /** Why the driver's monitor last failed to reach a server, in words. */
  private Optional<String> unreachable(Optional<Throwable> heartbeat) {
    return heartbeat.map(failure ->
        failure instanceof MongoSecurityException
            ? authenticationFailed
            : NetworkFailures.reason(failure).orElse(SqlDialect.firstLine(failure.getMessage())));
  }
}

package dev.svc.connector;

import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import com.mongodb.connection.ServerConnectionState;
import com.mongodb.event.ServerDescriptionChangedEvent;
import com.mongodb.event.ServerListener;
import dev.svc.model.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import tools.jackson.databind.JsonNode;

/**
 * The MongoDB connector: the official synchronous driver runs each statement's command with {@code
 * runCommand} on the database the statement names. Cursor replies ({@code find}, {@code aggregate},
 * {@code listCollections}, …) are unwrapped to an array of documents and followed with {@code
 * getMore} until the cursor is exhausted, up to {@value #MAX_DOCUMENTS} documents; a cursor holding
 * more is closed and the call fails, asking for a narrower command. Other replies are returned as
 * the reply document.
 *
 * <p><b>Deadlines.</b> Each command runs under the driver's client-side operation time-out set to
 * what is left of the call's deadline: the driver also sends it to the server as {@code maxTimeMS},
 * so a command past its deadline is stopped there too.
 *
 * <p><b>Errors.</b> A command the server rejects, and a write that reports write errors, is a
 * {@link StatementFailedException} with the server's message; an unreachable server or refused
 * credentials is a {@link ConnectorUnavailableException}.
 */
public final class MongoConnector implements Connector {
  /** The most documents a cursor may yield before the call fails. */
  static final int MAX_DOCUMENTS = 10_000;

  private static final BsonDocument PING = new BsonDocument("ping", new BsonInt32(1));

  private final MongoSettings settings;
  private final String description;
  private final AtomicReference<Throwable> lastHeartbeatFailure = new AtomicReference<>();
  private final Object lock = new Object();
  private MongoClient client; // guarded by lock; opened by the first check or call
  private boolean closed; // guarded by lock

  /** The driver's pool events, counted for {@link #pool()}. */
  private final PoolCounts counts = new PoolCounts();

  private static final class PoolCounts implements com.mongodb.event.ConnectionPoolListener {
    final java.util.concurrent.atomic.AtomicInteger open =
        new java.util.concurrent.atomic.AtomicInteger();
    final java.util.concurrent.atomic.AtomicInteger used =
        new java.util.concurrent.atomic.AtomicInteger();
    final java.util.concurrent.atomic.AtomicInteger waiting =
        new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public void connectionCreated(com.mongodb.event.ConnectionCreatedEvent event) {
      open.incrementAndGet();
    }

    @Override
    public void connectionClosed(com.mongodb.event.ConnectionClosedEvent event) {
      open.decrementAndGet();
    }

    @Override
    public void connectionCheckOutStarted(com.mongodb.event.ConnectionCheckOutStartedEvent event) {
      waiting.incrementAndGet();
    }

    @Override
    public void connectionCheckedOut(com.mongodb.event.ConnectionCheckedOutEvent event) {
      waiting.decrementAndGet();
      used.incrementAndGet();
    }

    @Override
    public void connectionCheckOutFailed(com.mongodb.event.ConnectionCheckOutFailedEvent event) {
      waiting.decrementAndGet();
    }

    @Override
    public void connectionCheckedIn(com.mongodb.event.ConnectionCheckedInEvent event) {
      used.decrementAndGet();
    }
  }

  @Override
  public java.util.Optional<PoolUsage> pool() {
    int inUse = Math.max(0, counts.used.get());
    return java.util.Optional.of(
        new PoolUsage(
            inUse,
            Math.max(0, counts.open.get() - inUse),
            settings.client().getConnectionPoolSettings().getMaxSize(),
            Math.max(0, counts.waiting.get())));
  }

  MongoConnector(ResolvedAdapter adapter) {
    this.settings = MongoSettings.of(adapter);
    this.description = "mongodb adapter `" + adapter.name() + "`";
  }

  MongoSettings settings() {
    return settings;
  }

  @Override
  public void check(Duration timeout) {
    try {
      client()
          .getDatabase("admin")
          .withTimeout(millis(timeout), TimeUnit.MILLISECONDS)
          .runCommand(PING, BsonDocument.class);
    } catch (MongoTimeoutException e) {
      throw new ConnectorUnavailableException(
          cannotConnect()
              + heartbeatReason()
                  .orElse("no server answered within " + JdbcFailures.words(timeout)),
          e);
    } catch (MongoSecurityException e) {
      throw new ConnectorUnavailableException(cannotConnect() + authenticationFailed(), e);
    } catch (MongoInterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectorUnavailableException("interrupted while connecting to " + description, e);
    } catch (MongoException e) {
      throw new ConnectorUnavailableException(
          cannotConnect() + NetworkFailures.reason(e).orElse(SqlDialect.firstLine(e.getMessage())),
          e);
    }
  }

  @Override
  public JsonNode execute(Statement statement, Map<String, Object> values, Duration timeout) {
    if (!(statement instanceof Statement.Mongo mongo)) {
      throw new IllegalArgumentException(description + " runs MongoDB commands only");
    }
    MongoCommands.Command command = MongoCommands.render(mongo, values);
    long deadline = System.nanoTime() + timeout.toNanos();
    MongoClient open = client();
    try {
      BsonDocument reply = run(open, command.database(), command.command(), deadline, timeout);
      writeErrors(command.name(), reply);
      return cursor(reply).isPresent()
          ? documents(open, reply, deadline, timeout)
          : BsonJson.object(reply);
    } catch (MongoCommandException e) {
      throw new StatementFailedException(commandFailed(e), false, e);
    } catch (MongoOperationTimeoutException
        | MongoExecutionTimeoutException
        | MongoSocketReadTimeoutException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw cancelled(e);
      }
      Optional<String> unreachable = heartbeatReason();
      if (unreachable.isPresent()) {
        throw new ConnectorUnavailableException(cannotConnect() + unreachable.get(), e);
      }
      throw new StatementFailedException(JdbcFailures.statementTimedOut(timeout), true, e);
    } catch (MongoInterruptedException e) {
      throw cancelled(e);
    } catch (MongoTimeoutException e) {
      String message = e.getMessage() == null ? "" : e.getMessage();
      if (message.contains("connection from the pool")
          || message.contains("waiting for a connection")) {
        throw new ConnectorUnavailableException(
            "pool exhausted: every connection of " + description + " stayed busy", e);
      }
      throw new ConnectorUnavailableException(
          cannotConnect() + heartbeatReason().orElse("no server answered"), e);
    } catch (MongoSecurityException e) {
      throw new ConnectorUnavailableException(cannotConnect() + authenticationFailed(), e);
    } catch (MongoSocketException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw cancelled(e);
      }
      throw new ConnectorUnavailableException(
          "lost the connection to "
              + description
              + " at "
              + settings.location()
              + ": "
              + NetworkFailures.reason(e).orElse(SqlDialect.firstLine(e.getMessage())),
          e);
    } catch (MongoException e) {
      if (Thread.currentThread().isInterrupted()) {
        throw cancelled(e);
      }
      throw new ConnectorUnavailableException(
          description + " failed: " + SqlDialect.firstLine(e.getMessage()), e);
    }
  }

  private static BsonDocument run(
      MongoClient client, String database, BsonDocument command, long deadline, Duration timeout) {
    long remaining = deadline - System.nanoTime();
    if (remaining <= 0) {
      throw new StatementFailedException(JdbcFailures.statementTimedOut(timeout), true, null);
    }
    MongoDatabase db =
        client
            .getDatabase(database)
            .withTimeout(millis(Duration.ofNanos(remaining)), TimeUnit.MILLISECONDS);
    return db.runCommand(command, BsonDocument.class);
  }

  /** The reply's {@code cursor} sub-document, when the command returned a cursor. */
  private static Optional<BsonDocument> cursor(BsonDocument reply) {
    BsonValue cursor = reply.get("cursor");
    return cursor != null && cursor.isDocument() && cursor.asDocument().isArray("firstBatch")
        ? Optional.of(cursor.asDocument())
        : Optional.empty();
  }

  /** Every document of the reply's cursor, following it with {@code getMore}. */
  private JsonNode documents(
      MongoClient client, BsonDocument reply, long deadline, Duration timeout) {
    BsonDocument cursor = cursor(reply).orElseThrow();
    BsonArray documents = new BsonArray();
    documents.addAll(cursor.getArray("firstBatch"));
    long id = cursorId(cursor);
    String namespace = cursor.getString("ns", new BsonString("")).getValue();
    int dot = namespace.indexOf('.');
    String database = dot < 0 ? namespace : namespace.substring(0, dot);
    String collection = dot < 0 ? "" : namespace.substring(dot + 1);
    boolean done = false;
    try {
      while (id != 0 && documents.size() <= MAX_DOCUMENTS) {
        BsonDocument more =
            new BsonDocument("getMore", new BsonInt64(id))
                .append("collection", new BsonString(collection))
                // never more than one past the cap (MongoDB's own default is 16 MB of documents)
                .append("batchSize", new BsonInt32(MAX_DOCUMENTS + 1 - documents.size()));
        BsonDocument next = run(client, database, more, deadline, timeout).getDocument("cursor");
        documents.addAll(next.getArray("nextBatch"));
        id = cursorId(next);
      }
      done = true;
    } finally {
      if (id != 0) {
        killCursor(client, database, collection, id, done);
      }
    }
    if (documents.size() > MAX_DOCUMENTS) {
      throw new StatementFailedException(
          "the command's cursor holds more than "
              + MAX_DOCUMENTS
              + " documents; narrow the filter or add a limit",
          false,
          null);
    }
    return BsonJson.of(documents);
  }

  private static long cursorId(BsonDocument cursor) {
    BsonValue id = cursor.get("id");
    return id != null && id.isNumber() ? id.asNumber().longValue() : 0;
  }

  /** Best effort: a cursor we stop reading is closed rather than left to time out. */
  private static void killCursor(
      MongoClient client, String database, String collection, long id, boolean inTime) {
    if (!inTime && Thread.currentThread().isInterrupted()) {
      return;
    }
    try {
      client
          .getDatabase(database)
          .withTimeout(2, TimeUnit.SECONDS)
          .runCommand(
              new BsonDocument("killCursors", new BsonString(collection))
                  .append("cursors", new BsonArray(java.util.List.of(new BsonInt64(id)))),
              BsonDocument.class);
    } catch (MongoException e) {
      // the server closes idle cursors itself after 10 minutes
    }
  }

  /** Write commands report failed documents in the reply, not as an error: fail the call. */
  private static void writeErrors(String command, BsonDocument reply) {
    BsonValue errors = reply.get("writeErrors");
    if (errors != null && errors.isArray() && !errors.asArray().isEmpty()) {
      BsonDocument first = errors.asArray().getFirst().asDocument();
      int more = errors.asArray().size() - 1;
      String written =
          reply.isNumber("n") ? " after writing " + reply.getNumber("n").longValue() + "" : "";
      throw new StatementFailedException(
          "`"
              + command
              + "` reported a write error"
              + written
              + ": "
              + serverMessage(first.getString("errmsg", new BsonString("")).getValue())
              + (more > 0 ? " (and " + more + " more)" : ""),
          false,
          null);
    }
    BsonValue concern = reply.get("writeConcernError");
    if (concern != null && concern.isDocument()) {
      throw new StatementFailedException(
          "`"
              + command
              + "` did not meet its write concern: "
              + serverMessage(
                  concern.asDocument().getString("errmsg", new BsonString("")).getValue()),
          false,
          null);
    }
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

  private StatementFailedException cancelled(Throwable cause) {
    return new StatementFailedException(
        "the call was cancelled before the command finished", false, cause);
  }

  private String cannotConnect() {
    return "cannot connect to " + description + " at " + settings.location() + ": ";
  }

  private String authenticationFailed() {
    return "authentication failed" + settings.user().map(u -> " for user `" + u + "`").orElse("");
  }

  /** Why the driver's monitor last failed to reach a server, if it did. */
  private Optional<String> heartbeatReason() {
    Throwable failure = lastHeartbeatFailure.get();
    if (failure == null) {
      return Optional.empty();
    }
    if (failure instanceof MongoSecurityException) {
      return Optional.of(authenticationFailed());
    }
    return Optional.of(
        NetworkFailures.reason(failure).orElse(SqlDialect.firstLine(failure.getMessage())));
  }

  private MongoClient client() {
    synchronized (lock) {
      if (closed) {
        throw new ConnectorUnavailableException(description + " is closed");
      }
      if (client == null) {
        ServerListener monitor =
            new ServerListener() {
              @Override
              public void serverDescriptionChanged(ServerDescriptionChangedEvent event) {
                var now = event.getNewDescription();
                lastHeartbeatFailure.set(
                    now.getState() == ServerConnectionState.CONNECTED ? null : now.getException());
              }
            };
        client =
            MongoClients.create(
                MongoClientSettings.builder(settings.client())
                    .applyToServerSettings(server -> server.addServerListener(monitor))
                    .applyToConnectionPoolSettings(pool -> pool.addConnectionPoolListener(counts))
                    .build());
      }
      return client;
    }
  }

  /** Closes the driver's pools and monitors. Never throws. */
  @Override
  public void close() {
    MongoClient open;
    synchronized (lock) {
      closed = true;
      open = client;
      client = null;
    }
    if (open != null) {
      try {
        open.close();
      } catch (RuntimeException e) {
        // closing is best effort
      }
    }
  }

  @Override
  public String toString() {
    return "MongoConnector(" + description + ")";
  }

  private static long millis(Duration duration) {
    return Math.max(1, duration.toMillis());
  }
}

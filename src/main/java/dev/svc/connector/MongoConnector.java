package dev.svc.connector;

import com.mongodb.MongoClientSettings;
import com.mongodb.MongoException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import com.mongodb.connection.ServerConnectionState;
import com.mongodb.event.ServerDescriptionChangedEvent;
import com.mongodb.event.ServerListener;
import dev.svc.call.Deadline;
import dev.svc.model.Statement;
import java.time.Duration;
import java.util.List;
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
  private final MongoFailures failures;
  private final AtomicReference<Throwable> lastHeartbeatFailure = new AtomicReference<>();

  /** The driver's pool events, counted for {@link #pool()}. */
  private final MongoPoolCounts counts = new MongoPoolCounts();

  private final Object lock = new Object();
  private MongoClient client; // guarded by lock; opened by the first check or call
  private boolean closed; // guarded by lock

  MongoConnector(ResolvedAdapter adapter) {
    this.settings = MongoSettings.of(adapter);
    this.description = "mongodb adapter `" + adapter.name() + "`";
    this.failures = new MongoFailures(description, settings);
  }

  @Override
  public Optional<PoolUsage> pool() {
    return Optional.of(counts.usage(settings.client().getConnectionPoolSettings().getMaxSize()));
  }

  MongoSettings settings() {
    return settings;
  }

  @Override
  public void check(Deadline deadline) {
    try {
      client()
          .getDatabase("admin")
          .withTimeout(millis(deadline.remaining()), TimeUnit.MILLISECONDS)
          .runCommand(PING, BsonDocument.class);
    } catch (MongoException e) {
      if (e instanceof MongoInterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw failures.ofCheck(e, deadline.timeout(), lastHeartbeatFailure());
    }
  }

  @Override
  public JsonNode execute(
      Statement statement,
      Map<String, Object> values,
      Deadline deadline,
      StatementOptions options) {
    if (!(statement instanceof Statement.Mongo mongo)) {
      throw new IllegalArgumentException(description + " runs MongoDB commands only");
    }
    MongoCommands.Command command = MongoCommands.render(mongo, values);
    MongoClient open = client();
    try {
      BsonDocument reply = run(open, command.database(), command.command(), deadline);
      Optional<StatementFailedException> writeFailed =
          MongoFailures.ofWriteReply(command.name(), reply);
      if (writeFailed.isPresent()) {
        throw writeFailed.get();
      }
      return options.window(
          cursor(reply).isPresent() ? documents(open, reply, deadline) : BsonJson.object(reply));
    } catch (MongoException e) {
      throw failures.ofCommand(
          e, deadline.timeout(), lastHeartbeatFailure(), Thread.currentThread().isInterrupted());
    }
  }

  private static BsonDocument run(
      MongoClient client, String database, BsonDocument command, Deadline deadline) {
    long remaining = deadline.remainingNanos();
    if (remaining <= 0) {
      throw new StatementFailedException(
          JdbcFailures.statementTimedOut(deadline.timeout()), true, null);
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
  private JsonNode documents(MongoClient client, BsonDocument reply, Deadline deadline) {
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
        BsonDocument next = run(client, database, more, deadline).getDocument("cursor");
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
                  .append("cursors", new BsonArray(List.of(new BsonInt64(id)))),
              BsonDocument.class);
    } catch (MongoException e) {
      // the server closes idle cursors itself after 10 minutes
    }
  }

  /** Why the driver's monitor last failed to reach a server; empty while it reaches one. */
  private Optional<Throwable> lastHeartbeatFailure() {
    return Optional.ofNullable(lastHeartbeatFailure.get());
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

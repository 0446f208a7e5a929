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
import dev.svc.json.JsonFootprint;
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
import tools.jackson.databind.node.ArrayNode;

/**
 * The MongoDB connector: the official synchronous driver runs each statement's command with {@code
 * runCommand} on the database the statement names. Cursor replies ({@code find}, {@code aggregate},
 * {@code listCollections}, …) are unwrapped to an array of documents and followed with {@code
 * getMore} until the cursor is exhausted or the call's window ({@link StatementOptions}) is read:
 * then the cursor is killed. Other replies are returned as the reply document.
 *
 * <p><b>Memory.</b> Documents before the window are dropped as they arrive; each {@code getMore}
 * asks for at most {@value #FETCH_DOCUMENTS} documents and never more than the window still needs
 * (MongoDB also caps a batch at 16 MiB), and every document kept is counted in the call's {@link
 * ResultMemory}, which stops a result past its ceiling. A {@code find} without a {@code limit} of
 * its own gets the window's end as its {@code limit}, so the server stops there.
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
  /** The most documents one {@code getMore} asks for. */
  static final int FETCH_DOCUMENTS = 1_000;

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
    try {
      return command(mongo, values, deadline, options);
    } catch (StatementFailedException | ConnectorUnavailableException e) {
      throw BoundValueRedaction.of(values).apply(e);
    }
  }

  private JsonNode command(
      Statement.Mongo mongo,
      Map<String, Object> values,
      Deadline deadline,
      StatementOptions options) {
    MongoCommands.Command command = MongoCommands.render(mongo, values);
    return ResultMemory.counting(memory -> result(command, deadline, options, memory));
  }

  /**
   * Runs {@code command} and reads its result within {@code options}' window into {@code memory}.
   */
  private JsonNode result(
      MongoCommands.Command command,
      Deadline deadline,
      StatementOptions options,
      ResultMemory.Account memory) {
    MongoClient open = client();
    try {
      BsonDocument reply =
          run(open, command.database(), MongoCommands.limited(command, options), deadline);
      Optional<StatementFailedException> writeFailed =
          MongoFailures.ofWriteReply(command.name(), reply);
      if (writeFailed.isPresent()) {
        throw writeFailed.get();
      }
      if (cursor(reply).isPresent()) {
        return documents(open, reply, deadline, options, memory);
      }
      JsonNode result = options.window(BsonJson.object(reply));
      memory.add(JsonFootprint.of(result));
      return result;
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

  /**
   * The documents of the reply's cursor within {@code window}, following it with {@code getMore}:
   * those before the window are dropped as they arrive, those in it counted in {@code memory}; the
   * cursor is killed once the window is read.
   */
  private JsonNode documents(
      MongoClient client,
      BsonDocument reply,
      Deadline deadline,
      StatementOptions window,
      ResultMemory.Account memory) {
    BsonDocument cursor = cursor(reply).orElseThrow();
    long id = cursorId(cursor);
    String namespace = cursor.getString("ns", new BsonString("")).getValue();
    int dot = namespace.indexOf('.');
    String database = dot < 0 ? namespace : namespace.substring(0, dot);
    String collection = dot < 0 ? "" : namespace.substring(dot + 1);
    long limit = window.readLimit();
    ArrayNode documents = JsonValues.NODES.arrayNode();
    long seen = 0;
    boolean done = false;
    try {
      BsonArray batch = cursor.getArray("firstBatch");
      while (true) {
        for (BsonValue document : batch) {
          if (seen >= limit) {
            break;
          }
          if (seen++ >= window.skip()) {
            JsonNode kept = BsonJson.of(document);
            memory.add(JsonFootprint.of(kept));
            documents.add(kept);
          }
        }
        if (id == 0 || seen >= limit) {
          break;
        }
        BsonDocument more =
            new BsonDocument("getMore", new BsonInt64(id))
                .append("collection", new BsonString(collection))
                .append("batchSize", new BsonInt32(batchSize(limit - seen)));
        BsonDocument next = run(client, database, more, deadline).getDocument("cursor");
        batch = next.getArray("nextBatch");
        id = cursorId(next);
      }
      done = true;
    } finally {
      if (id != 0) {
        killCursor(client, database, collection, id, done);
      }
    }
    return documents;
  }

  /** Documents one {@code getMore} asks for when {@code wanted} more are needed. */
  private static int batchSize(long wanted) {
    return (int) Math.min(wanted, FETCH_DOCUMENTS);
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

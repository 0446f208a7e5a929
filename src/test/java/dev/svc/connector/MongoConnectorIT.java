package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.svc.call.Deadline;
import dev.svc.model.ConnectorKind;
import dev.svc.testing.InJvmMongo;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.Document;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The MongoDB connector against an in-JVM MongoDB server; each test has its own database. */
class MongoConnectorIT implements ConnectorContract {
  @RegisterExtension static final InJvmMongo mongo = new InJvmMongo();
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static final String ADA_ID = "65f0c0ffee0000000000000a";

  private Connector connector;
  private String db;

  @BeforeEach
  void seed() {
    db = "it" + DATABASES.incrementAndGet();
    connector = Connectors.open(mongo.adapter(Map.of()));
    run(
        """
        {"database": "DB", "command": {"insert": "people", "documents": [
          {"_id": {"$oid": "65f0c0ffee0000000000000a"}, "name": "Ada", "age": 36,
           "born": {"$date": "1815-12-10T00:00:00Z"}},
          {"name": "Alan", "age": 41},
          {"name": "Grace", "age": 85}
        ]}}
        """,
        Map.of());
  }

  @AfterEach
  void close() {
    connector.close();
  }

  // ---- the contract -------------------------------------------------------------------------

  @Override
  public ConnectorKind kind() {
    return ConnectorKind.MONGODB;
  }

  @Override
  public ResolvedAdapter adapter(Map<String, String> options) {
    return mongo.adapter(options);
  }

  @Override
  public ResolvedAdapter adapterAt(int port) {
    return new ResolvedAdapter(
        "db", ConnectorKind.MONGODB, "mongodb://127.0.0.1:" + port + "/x", Map.of(), Path.of("."));
  }

  @Override
  public String trivialStatement() {
    return "{\"database\": \"admin\", \"command\": {\"ping\": 1}}";
  }

  @Override
  public JsonNode trivialResult() {
    return JSON.readTree("{\"ok\": 1.0}");
  }

  @Override
  public String statementUsingValue() {
    return "{\"database\": \"x\", \"command\": {\"find\": \"c\", \"filter\": {\"a\": {{ inputs.value }}}}}";
  }

  @Override
  public String rejectedStatement() {
    return "{\"database\": \"x\", \"command\": {\"noSuchCommand\": 1}}";
  }

  @Override
  public String rejectedMessagePart() {
    return "noSuchCommand";
  }

  // ---- commands -----------------------------------------------------------------------------

  @Test
  void findWithAFilterReturnsTheDocumentsOfTheCursor() {
    JsonNode people =
        run(
            """
            {"database": "DB", "command": {"find": "people",
              "filter": {"age": {"$gte": {{ inputs.min_age }}}, "name": {"$ne": "{{ inputs.not }}"}},
              "sort": {"age": 1}, "projection": {"_id": 0, "name": 1}}}
            """,
            values("min_age", 40L, "not", "Nobody"));

    assertJson(people, "[{\"name\": \"Alan\"}, {\"name\": \"Grace\"}]");
  }

  @Test
  void objectIdsAreWrittenAsOidAndReadAsHex() {
    JsonNode ada =
        run(
            """
            {"database": "DB", "command": {"find": "people",
              "filter": {"_id": {"$oid": "{{ inputs.id }}"}}, "projection": {"name": 1}}}
            """,
            values("id", ADA_ID));

    assertJson(ada, "[{\"_id\": \"" + ADA_ID + "\", \"name\": \"Ada\"}]");
  }

  @Test
  void anInvalidObjectIdIsAToolError() {
    assertThatThrownBy(() ->
            run(
                "{\"database\": \"DB\", \"command\": {\"find\": \"people\", \"filter\": {\"_id\":"
                    + " {\"$oid\": \"{{ inputs.id }}\"}}}}",
                values("id", "not-an-id")))
        .isInstanceOf(StatementFailedException.class)
        .hasMessageStartingWith("the MongoDB statement is not valid extended JSON")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("not-an-id"));
  }

  @Test
  void insertUpdateDeleteAndCountReturnTheReply() {
    assertJson(
        run(
            "{\"database\": \"DB\", \"command\": {\"insert\": \"people\", \"documents\": [{\"name\":"
                + " {{ inputs.name }}, \"age\": {{ inputs.age }}, \"active\": {{ inputs.active"
                + " }}}]}}",
            values("name", "Linus", "age", 54L, "active", true)),
        "{\"n\": 1, \"ok\": 1.0}");
    JsonNode updated =
        run(
            "{\"database\": \"DB\", \"command\": {\"update\": \"people\", \"updates\": [{\"q\":"
                + " {\"name\": {{ inputs.name }}}, \"u\": {\"$inc\": {\"age\": {{ inputs.by }}}}}]}}",
            values("name", "Linus", "by", 1L));
    assertThat(updated.get("n").asInt()).isEqualTo(1);
    assertThat(updated.get("nModified").asInt()).isEqualTo(1);
    assertJson(
        run(
            "{\"database\": \"DB\", \"command\": {\"count\": \"people\", \"query\": {\"age\": 55}}}",
            Map.of()),
        "{\"n\": 1, \"ok\": 1.0}");
    assertJson(
        run(
            "{\"database\": \"DB\", \"command\": {\"delete\": \"people\", \"deletes\": [{\"q\":"
                + " {\"age\": {\"$gt\": 50}}, \"limit\": 0}]}}",
            Map.of()),
        "{\"n\": 2, \"ok\": 1.0}");
  }

  @Test
  void aggregateUnwrapsItsCursor() {
    JsonNode groups =
        run(
            """
            {"database": "DB", "command": {"aggregate": "people", "pipeline": [
              {"$match": {"age": {"$lt": {{ inputs.max }}}}},
              {"$group": {"_id": null, "total": {"$sum": "$age"}, "n": {"$sum": 1}}}
            ], "cursor": {}}}
            """,
            values("max", 50.5));

    assertJson(groups, "[{\"_id\": null, \"total\": 77, \"n\": 2}]");
  }

  @Test
  void aCursorIsFollowedWithGetMoreAcrossBatches() {
    insertNumbers("many", 250);

    JsonNode all =
        run(
            "{\"database\": \"DB\", \"command\": {\"find\": \"many\", \"sort\": {\"i\": 1},"
                + " \"batchSize\": 40, \"projection\": {\"_id\": 0}}}",
            Map.of());

    assertThat(all).hasSize(250);
    assertThat(all.get(0).get("i").asInt()).isZero();
    assertThat(all.get(249).get("i").asInt()).isEqualTo(249);
  }

  @Test
  void aCursorIsReadWithinTheWindowAndNoFurther() {
    insertNumbers("huge", 3000);
    String find =
        "{\"database\": \"DB\", \"command\": {\"find\": \"huge\", \"sort\": {\"i\": 1},"
            + " \"batchSize\": 40, \"projection\": {\"_id\": 0}}}";
    String aggregate =
        "{\"database\": \"DB\", \"command\": {\"aggregate\": \"huge\", \"pipeline\":"
            + " [{\"$sort\": {\"i\": 1}}, {\"$project\": {\"_id\": 0, \"i\": 1}}],"
            + " \"cursor\": {\"batchSize\": 40}}}";

    assertJson(run(find, window(1000, 3)), "[{\"i\": 1000}, {\"i\": 1001}, {\"i\": 1002}]");
    assertJson(run(aggregate, window(2500, 2)), "[{\"i\": 2500}, {\"i\": 2501}]");
    assertJson(run(aggregate, window(2999, 5)), "[{\"i\": 2999}]");
    assertThat(run(find, StatementOptions.ALL)).hasSize(3000); // no cap of its own
  }

  @Test
  void aCursorPastTheCeilingIsRefusedAndTheNextCallIsServed() {
    insertNumbers("huge", 3000);
    ResultMemory small = new ResultMemory(1024 * 1024, 64 * 1024);

    Throwable refused;
    try (ResultMemory.Account call = small.open()) {
      refused =
          catchThrowable(() ->
              ScopedValue.where(ResultMemory.CALL, call)
                  .call(() ->
                      run(
                          "{\"database\": \"DB\", \"command\": {\"find\": \"huge\","
                              + " \"batchSize\": 100}}",
                          StatementOptions.ALL)));
    }

    assertThat(refused)
        .isInstanceOf(ResultRefusedException.class)
        .hasMessageStartingWith("the result passed svc's ceiling of 64 KiB for one result");
    assertThat(small.reservedBytes()).isZero();
    assertThat(
            run("{\"database\": \"DB\", \"command\": {\"count\": \"huge\"}}", Map.of())
                .get("n")
                .asInt())
        .isEqualTo(3000);
  }

  @Test
  void datesAreWrittenAsDatesAndReadAsIsoText() {
    run(
        "{\"database\": \"DB\", \"command\": {\"insert\": \"events\", \"documents\": [{\"at\":"
            + " {{ inputs.at }}, \"day\": {{ inputs.day }}}]}}",
        values(
            "at",
            OffsetDateTime.parse("2024-05-01T12:30:00+02:00"),
            "day",
            LocalDate.parse("2024-05-02")));

    assertJson(
        run(
            "{\"database\": \"DB\", \"command\": {\"find\": \"events\", \"filter\": {\"at\":"
                + " {\"$gte\": {{ inputs.since }}}}, \"projection\": {\"_id\": 0}}}",
            values("since", OffsetDateTime.parse("2024-05-01T00:00:00Z"))),
        "[{\"at\": \"2024-05-01T10:30:00Z\", \"day\": \"2024-05-02T00:00:00Z\"}]");
    assertJson(
        run(
            "{\"database\": \"DB\", \"command\": {\"find\": \"people\", \"filter\": {\"name\": \"Ada\"}, \"projection\": {\"_id\": 0, \"born\": 1}}}",
            Map.of()),
        "[{\"born\": \"1815-12-10T00:00:00Z\"}]");
  }

  // ---- injection ----------------------------------------------------------------------------

  @Test
  void injectionAttemptsStayData() {
    String find =
        "{\"database\": \"DB\", \"command\": {\"find\": \"people\", \"filter\": {\"name\": {{"
            + " inputs.name }}}}}";
    String inString =
        "{\"database\": \"DB\", \"command\": {\"find\": \"people\", \"filter\": {\"name\":"
            + " \"{{ inputs.name }}\"}}}";

    assertJson(run(find, values("name", "{\"$ne\": null}")), "[]");
    assertJson(run(inString, values("name", "\", \"$where\": \"1")), "[]");
    assertJson(
        run(inString, values("name", "Ada\"}, \"age\": {\"$gt\": 0}, \"x\": {\"y\": \"")), "[]");
    assertThat(run(find, values("name", "Ada"))).hasSize(1);
  }

  @Test
  void aStructuredValueThatWouldChangeTheStatementIsRefused() {
    String find =
        "{\"database\": \"DB\", \"command\": {\"find\": \"people\", \"filter\": {\"name\": {{"
            + " inputs.name }}}}}";

    assertThatThrownBy(() -> run(find, values("name", JSON.readTree("{\"$ne\": null}"))))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage(
            "input `name` holds an object, which would change the MongoDB statement's structure;"
                + " pass scalar values (or an array of them)");
    assertThat(
            run(
                "{\"database\": \"DB\", \"command\": {\"find\": \"people\", \"filter\": {\"name\":"
                    + " {\"$in\": {{ inputs.names }}}}}}",
                values("names", JSON.readTree("[\"Ada\", \"Grace\"]"))))
        .hasSize(2);
  }

  // ---- errors -------------------------------------------------------------------------------

  @Test
  void aWriteErrorFailsTheCallWithoutQuotingTheKey() {
    assertThatThrownBy(() ->
            run(
                "{\"database\": \"DB\", \"command\": {\"insert\": \"people\", \"documents\":"
                    + " [{\"_id\": {\"$oid\": \"{{ inputs.id }}\"}}]}}",
                values("id", ADA_ID)))
        .isInstanceOf(StatementFailedException.class)
        .hasMessageStartingWith("`insert` reported a write error")
        .hasMessageContaining("E11000 duplicate key error")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(ADA_ID));
  }

  @Test
  void aCommandTheServerRejectsIsAToolError() {
    assertThatThrownBy(() ->
            run(
                "{\"database\": \"DB\", \"command\": {\"find\": \"people\", \"filter\": {\"a\": {\"$nope\": 1}}}}",
                Map.of()))
        .isInstanceOf(StatementFailedException.class)
        .hasMessageContaining("$nope");
  }

  @Test
  void optionsReachTheDriver() {
    try (Connector tuned =
        Connectors.open(
            mongo.adapter(
                Map.of(
                    "maxPoolSize", "3",
                    "minPoolSize", "1",
                    "connectTimeoutMS", "2000",
                    "serverSelectionTimeoutMS", "2000")))) {
      tuned.check(Deadline.after(TIMEOUT));
      assertThat(
              ((MongoConnector) tuned).settings().client().getConnectionPoolSettings().getMaxSize())
          .isEqualTo(3);
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  private void insertNumbers(String collection, int count) {
    try (MongoClient client = MongoClients.create(mongo.connectionString())) {
      List<Document> documents = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        documents.add(new Document("_id", new ObjectId()).append("i", i));
      }
      client.getDatabase(db).getCollection(collection).insertMany(documents);
    }
  }

  @Test
  void aValueTheServerQuotesInItsErrorReachesTheCallerAsItsPlaceholder() {
    StatementFailedException failure =
        catchThrowableOfType(
            StatementFailedException.class,
            () ->
                run(
                    """
                    {"database": "DB", "command": {"aggregate": "people", "cursor": {},
                      "pipeline": [{"$project": {"n": {"$toInt": {{ inputs.value }}}}}]}}
                    """,
                    values("value", SECRET)));

    assertThat(failure.getMessage()).contains("{{ inputs.value }}").doesNotContain(SECRET);
    for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
      assertThat(cause.toString()).doesNotContain(SECRET);
    }
  }

  @Test
  void anOptionalInputWithoutAValueIsWrittenAsNull() {
    run(
        """
        {"database": "DB", "command": {"insert": "people", "documents": [{"name": "Nobody"}]}}
        """,
        Map.of());

    assertThat(
            run(
                """
                {"database": "DB", "command": {"find": "people",
                  "filter": {"age": {{ inputs.age }}}, "projection": {"_id": 0, "name": 1}}}
                """,
                values("age", null)))
        .hasToString("[{\"name\":\"Nobody\"}]");
  }

  private static final String SECRET = "my-credit-card-4111";

  private JsonNode run(String source, Map<String, Object> values) {
    return connector.execute(
        statement(source.replace("\"DB\"", "\"" + db + "\"")), values, Deadline.after(TIMEOUT));
  }

  private JsonNode run(String source, StatementOptions options) {
    return connector.execute(
        statement(source.replace("\"DB\"", "\"" + db + "\"")),
        Map.of(),
        Deadline.after(TIMEOUT),
        options);
  }

  private static StatementOptions window(long skip, long take) {
    return new StatementOptions(skip, take, false);
  }

  private static Map<String, Object> values(Object... pairs) {
    Map<String, Object> values = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      values.put((String) pairs[i], pairs[i + 1]);
    }
    return values;
  }

  private static void assertJson(JsonNode actual, String expected) {
    assertThat(actual.toString()).isEqualTo(JSON.readTree(expected).toString());
  }
}

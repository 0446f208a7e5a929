package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.call.Deadline;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;
import dev.svc.testing.TestRedis;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The Redis connector against the real local server, on keys of its own. */
class RedisConnectorIT implements ConnectorContract {
  @RegisterExtension static final TestRedis redis = new TestRedis();
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private Connector connector;
  private String k; // the key prefix

  @BeforeEach
  void open() {
    k = redis.prefix();
    connector = Connectors.open(redis.adapter(Map.of()));
  }

  @AfterEach
  void close() {
    connector.close();
  }

  // ---- the contract -------------------------------------------------------------------------

  @Override
  public ConnectorKind kind() {
    return ConnectorKind.REDIS;
  }

  @Override
  public ResolvedAdapter adapter(Map<String, String> options) {
    return redis.adapter(options);
  }

  @Override
  public ResolvedAdapter adapterAt(int port) {
    return redis.adapter("redis://127.0.0.1:" + port + "/0", Map.of());
  }

  @Override
  public String trivialStatement() {
    return "PING";
  }

  @Override
  public JsonNode trivialResult() {
    return JSON.readTree("\"PONG\"");
  }

  @Override
  public String statementUsingValue() {
    return "GET {{ inputs.value }}";
  }

  @Override
  public String rejectedStatement() {
    return "NOSUCHCOMMAND a b";
  }

  @Override
  public String rejectedMessagePart() {
    return "unknown command";
  }

  // ---- replies ------------------------------------------------------------------------------

  @Test
  void stringsRoundTripWithSpacesAndQuotesAsOneArgument() {
    String text = "he said \"hi\" and left  twice\nnew line";
    assertJson(run("SET " + k + "greeting {{ inputs.text }}", values("text", text)), "\"OK\"");

    assertThat(run("GET " + k + "greeting", Map.of()).stringValue()).isEqualTo(text);
    assertThat(run("STRLEN " + k + "greeting", Map.of()).asLong()).isEqualTo(text.length());
  }

  @Test
  void quotedLiteralsGroupWordsAndPlaceholdersStayInsideTheirArgument() {
    run("SET \"" + k + "user:{{ inputs.id }}\" \"Ada Lovelace\"", values("id", 7L));

    assertJson(run("GET " + k + "user:7", Map.of()), "\"Ada Lovelace\"");
  }

  @Test
  void aMissingKeyIsNull() {
    assertJson(run("GET " + k + "nothing", Map.of()), "null");
  }

  @Test
  void integersAndDoublesAreNumbers() {
    assertJson(run("INCRBY " + k + "n {{ inputs.by }}", values("by", 41L)), "41");
    assertJson(run("INCR " + k + "n", Map.of()), "42");
    run("ZADD " + k + "z {{ inputs.score }} ada", values("score", 1.5));

    assertJson(run("ZSCORE " + k + "z ada", Map.of()), "1.5");
    assertJson(run("ZRANGE " + k + "z 0 -1 WITHSCORES", Map.of()), "[[\"ada\", 1.5]]");
    assertJson(run("EXISTS " + k + "n " + k + "none", Map.of()), "1");
  }

  @Test
  void hashesAreObjects() {
    assertJson(run("HSET " + k + "h name {{ inputs.name }} age 36", values("name", "Ada")), "2");

    assertJson(run("HGETALL " + k + "h", Map.of()), "{\"name\": \"Ada\", \"age\": \"36\"}");
    assertJson(run("HGET " + k + "h name", Map.of()), "\"Ada\"");
    assertJson(run("HGETALL " + k + "no-hash", Map.of()), "{}");
  }

  @Test
  void listsAndSetsAreArrays() {
    run("RPUSH " + k + "l a {{ inputs.b }} c", values("b", "b b"));
    run("SADD " + k + "s x y", Map.of());

    assertJson(run("LRANGE " + k + "l 0 -1", Map.of()), "[\"a\", \"b b\", \"c\"]");
    assertThat(run("SMEMBERS " + k + "s", Map.of()).valueStream().map(JsonNode::stringValue))
        .containsExactlyInAnyOrder("x", "y");
    assertJson(run("LRANGE " + k + "empty 0 -1", Map.of()), "[]");
  }

  @Test
  void aReplyIsCutToTheWindowAndOnePastTheCeilingIsRefused() {
    run("RPUSH " + k + "w a b c d e f", Map.of());
    Statement all = statement("LRANGE " + k + "w 0 -1");

    assertJson(
        connector.execute(
            all, Map.of(), Deadline.after(TIMEOUT), new StatementOptions(2, 3, false)),
        "[\"c\", \"d\", \"e\"]");
    String big = "x".repeat(10_000);
    for (int i = 0; i < 20; i++) {
      run("RPUSH " + k + "big " + big, Map.of());
    }
    ResultMemory small = new ResultMemory(1024 * 1024, 64 * 1024);
    try (ResultMemory.Account call = small.open()) {
      assertThatThrownBy(() ->
              ScopedValue.where(ResultMemory.CALL, call)
                  .call(() -> run("LRANGE " + k + "big 0 -1", Map.of())))
          .isInstanceOf(ResultRefusedException.class)
          .hasMessageStartingWith("the result passed svc's ceiling of 64 KiB for one result");
    }
    assertThat(small.reservedBytes()).isZero();
    assertThat(run("LLEN " + k + "big", Map.of()).asInt()).isEqualTo(20);
  }

  @Test
  void aValuePastTheCeilingIsSizedAndRefusedBeforeItIsRead() {
    // before: GET read the value whole before it could be counted; a 300 MB string ended a 512 MiB
    // server with OutOfMemoryError
    String big = "x".repeat(100_000);
    run("SET " + k + "value " + big, Map.of());
    run("HSET " + k + "field f " + big + " small s", Map.of());
    ResultMemory small = new ResultMemory(1024 * 1024, 64 * 1024);
    for (String command :
        new String[] {"GET " + k + "value", "GETDEL " + k + "value", "HGET " + k + "field f"}) {
      try (ResultMemory.Account call = small.open()) {
        assertThatThrownBy(
                () -> ScopedValue.where(ResultMemory.CALL, call).call(() -> run(command, Map.of())))
            .as(command)
            .isInstanceOf(ResultRefusedException.class)
            .hasMessageStartingWith("the result passed svc's ceiling of 64 KiB for one result");
      }
    }
    assertThat(small.reservedBytes()).isZero();
    assertThat(run("STRLEN " + k + "value", Map.of()).asLong())
        .as("GETDEL was refused before it was sent")
        .isEqualTo(100_000);
    try (ResultMemory.Account call = small.open()) {
      assertJson(
          ScopedValue.where(ResultMemory.CALL, call)
              .call(() -> run("HGET " + k + "field small", Map.of())),
          "\"s\"");
    }
  }

  @Test
  void aRangeOfLargeElementsIsStoppedAtTheCeilingAsItIsReadAndTheNextCallIsServed() {
    // before: element counts were bounded, not their bytes; LRANGE of 40 elements of 5 MB was
    // 200 MB on the heap before it could be counted, and two such calls ended a 512 MiB server
    String element = "x".repeat(20_000);
    for (int i = 0; i < 10; i++) {
      run("RPUSH " + k + "wide " + element, Map.of());
    }
    ResultMemory small = new ResultMemory(1024 * 1024, 64 * 1024);
    try (ResultMemory.Account call = small.open()) {
      assertThatThrownBy(() ->
              ScopedValue.where(ResultMemory.CALL, call)
                  .call(() -> run("LRANGE " + k + "wide 0 9", Map.of())))
          .isInstanceOf(ResultRefusedException.class)
          .hasMessageStartingWith("the result passed svc's ceiling of 64 KiB for one result");
    }
    try (ResultMemory.Account call = small.open()) {
      assertThat(
              ScopedValue.where(ResultMemory.CALL, call)
                  .call(() -> run("LRANGE " + k + "wide 0 1", Map.of()))
                  .size())
          .as("a range under the ceiling, on a fresh connection")
          .isEqualTo(2);
    }
    assertThat(small.reservedBytes()).isZero();
  }

  @Test
  void aWholeKeyPastTheReplyBoundIsRefusedBeforeItIsRead() {
    run(
        "EVAL {{ inputs.script }} 1 " + k + "huge",
        values("script", "for i = 1, 100001 do redis.call('HSET', KEYS[1], i, 'x') end return 1"));

    StatementFailedException refused =
        catchThrowableOfType(
            StatementFailedException.class, () -> run("HGETALL " + k + "huge", Map.of()));

    assertThat(refused)
        .hasMessageStartingWith(
            "`HGETALL` would read 100001 elements, more than the 100000 svc reads from one reply");
    assertThat(run("HLEN " + k + "huge", Map.of()).asLong()).isEqualTo(100_001);
    run("RPUSH " + k + "list a b c d e", Map.of());
    assertJson(
        connector.execute(
            statement("LRANGE " + k + "list 0 -1"),
            Map.of(),
            Deadline.after(TIMEOUT),
            new StatementOptions(0, 3, false)),
        "[\"a\", \"b\", \"c\"]");
    assertJson(run("LRANGE " + k + "list -2 -1", Map.of()), "[\"d\", \"e\"]");
  }

  @Test
  void everyValueTypeBecomesText() {
    Map<String, Object> values =
        values(
            "s",
            "text",
            "i",
            3L,
            "f",
            2.5,
            "b",
            true,
            "t",
            OffsetDateTime.parse("2024-05-01T10:00:00Z"),
            "j",
            JSON.readTree("{\"a\": [1, 2]}"));
    run(
        "RPUSH "
            + k
            + "typed {{ inputs.s }} {{ inputs.i }} {{ inputs.f }} {{ inputs.b }} {{"
            + " inputs.t }} {{ inputs.j }}",
        values);

    assertJson(
        run("LRANGE " + k + "typed 0 -1", Map.of()),
        "[\"text\", \"3\", \"2.5\", \"true\", \"2024-05-01T10:00:00Z\", \"{\\\"a\\\":[1,2]}\"]");
  }

  @Test
  void injectionAttemptsStayOneArgument() {
    String evil = "x\r\nFLUSHDB\r\n";
    run("SET " + k + "keep 1", Map.of());
    run("SET " + k + "evil {{ inputs.v }}", values("v", evil));

    assertJson(run("GET " + k + "evil", Map.of()), JSON.writeValueAsString(evil));
    assertJson(run("GET " + k + "keep", Map.of()), "\"1\"");
    // two existing keys in one value are one (missing) key, not two arguments
    assertJson(run("EXISTS {{ inputs.v }}", values("v", k + "keep " + k + "evil")), "0");
  }

  // ---- errors -------------------------------------------------------------------------------

  @Test
  void redisErrorsAreToolErrorsWithoutTheArguments() {
    run("SET " + k + "plain v", Map.of());

    assertThatThrownBy(() -> run("HGETALL " + k + "plain", Map.of()))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("WRONGTYPE Operation against a key holding the wrong kind of value");
    assertThatThrownBy(() -> run("NOPE {{ inputs.secret }}", values("secret", "s3cret")))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("ERR unknown command 'NOPE'");
  }

  @Test
  void commandsThatChangeTheConnectionAreRefused() {
    assertThatThrownBy(() -> run("SELECT 3", Map.of()))
        .isInstanceOf(StatementFailedException.class)
        .hasMessageStartingWith("svc does not run `SELECT`")
        .hasMessageContaining("/<db_number>");
    assertThatThrownBy(() -> run("client setname x", Map.of()))
        .hasMessageStartingWith("svc does not run `CLIENT SETNAME`");
  }

  @Test
  void aCommandPastItsDeadlineTimesOutAndTheConnectorRecovers() {
    StatementFailedException failure =
        catchThrowableOfType(
            StatementFailedException.class,
            () ->
                connector.execute(
                    statement("BLPOP " + k + "never 0"),
                    Map.of(),
                    Deadline.after(Duration.ofMillis(500))));

    assertThat(failure.timedOut()).isTrue();
    assertThat(failure.getMessage()).startsWith("the command ran longer than 500 ms");
    assertJson(run("PING", Map.of()), "\"PONG\"");
  }

  @Test
  void anInterruptedCallIsCancelled() throws Exception {
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    Thread call =
        Thread.ofVirtual()
            .start(() -> {
              try {
                run("BLPOP " + k + "never 0", Map.of());
              } catch (RuntimeException e) {
                failures.add(e);
              }
            });
    Thread.sleep(300);
    call.interrupt();
    call.join(Duration.ofSeconds(10));

    assertThat(failures).hasSize(1);
    assertThat(failures.getFirst())
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("the call was cancelled before the command finished");
    assertJson(run("PING", Map.of()), "\"PONG\"");
  }

  @Test
  void aCallFindingEveryConnectionBusyFailsWithPoolExhausted() throws Exception {
    connector.close();
    connector = Connectors.open(redis.adapter(Map.of("pool_size", "1")));
    Thread blocking =
        Thread.ofVirtual()
            .start(() -> {
              try {
                connector.execute(
                    statement("BLPOP " + k + "never 2"),
                    Map.of(),
                    Deadline.after(Duration.ofSeconds(10)));
              } catch (RuntimeException ignored) {
                // ends after 2 s with nil
              }
            });
    Thread.sleep(300);

    assertThatThrownBy(() ->
            connector.execute(statement("PING"), Map.of(), Deadline.after(Duration.ofMillis(200))))
        .isInstanceOf(ConnectorUnavailableException.class)
        .hasMessage(
            "pool exhausted: all 1 connections of redis adapter `db` stayed busy for 200 ms");
    blocking.join();
    assertJson(run("PING", Map.of()), "\"PONG\"");
  }

  // ---- connection strings -------------------------------------------------------------------

  @Test
  void theDatabaseNumberSelectsTheDatabase() {
    try (Connector five = Connectors.open(redis.adapter(redis.connectionString(5), Map.of()))) {
      five.execute(statement("SET " + k + "where five"), Map.of(), Deadline.after(TIMEOUT));

      assertThat(TestRedis.text(redis.run(5, "GET", k + "where"))).isEqualTo("five");
      assertThat(redis.run(0, "GET", k + "where")).isNull();
    }
  }

  @Test
  void anAclUserLogsInWithItsPassword() {
    String user = redis.createUser("reader", "p@ss:word/1");
    String encoded = "p%40ss%3Aword%2F1";
    try (Connector acl =
        Connectors.open(
            redis.adapter(
                "redis://" + user + ":" + encoded + "@127.0.0.1:" + redis.port() + "/0",
                Map.of()))) {
      acl.check(Deadline.after(TIMEOUT));
      acl.execute(statement("SET " + k + "acl yes"), Map.of(), Deadline.after(TIMEOUT));

      assertThat(
              acl.execute(statement("ACL WHOAMI"), Map.of(), Deadline.after(TIMEOUT)).stringValue())
          .isEqualTo(user);
      assertThatThrownBy(
              () -> acl.execute(statement("SET other:key x"), Map.of(), Deadline.after(TIMEOUT)))
          .isInstanceOf(StatementFailedException.class)
          .hasMessageStartingWith("NOPERM");
    }
  }

  @Test
  void aWrongPasswordFailsTheCheckAsAuthentication() {
    String user = redis.createUser("wrong", "right");
    try (Connector acl =
        Connectors.open(
            redis.adapter(
                "redis://" + user + ":nope@127.0.0.1:" + redis.port() + "/0", Map.of()))) {
      assertThatThrownBy(() -> acl.check(Deadline.after(TIMEOUT)))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessageStartingWith(
              "cannot connect to redis adapter `db` at 127.0.0.1:"
                  + redis.port()
                  + "/0: authentication failed for user `"
                  + user
                  + "`")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("nope"));
    }
  }

  @Test
  void thePasswordOnlyFormLogsInAsTheDefaultUser() {
    // the local server's default user has no password (nopass): any password is accepted
    try (Connector passwordOnly =
        Connectors.open(
            redis.adapter("redis://:anything@127.0.0.1:" + redis.port() + "/0", Map.of()))) {
      passwordOnly.check(Deadline.after(TIMEOUT));

      assertJson(
          passwordOnly.execute(statement("ACL WHOAMI"), Map.of(), Deadline.after(TIMEOUT)),
          "\"default\"");
    }
  }

  @Test
  void aDatabaseNumberTheServerDoesNotHaveFailsTheCheck() {
    try (Connector far =
        Connectors.open(redis.adapter("redis://127.0.0.1:" + redis.port() + "/999", Map.of()))) {
      assertThatThrownBy(() -> far.check(Deadline.after(TIMEOUT)))
          .isInstanceOf(ConnectorUnavailableException.class)
          .hasMessageStartingWith("cannot connect to redis adapter `db` at 127.0.0.1:")
          .hasMessageContaining("DB index is out of range");
    }
  }

  // ---- helpers ------------------------------------------------------------------------------

  @Test
  void aValueRedisQuotesInItsErrorReachesTheCallerAsItsPlaceholder() {
    StatementFailedException failure =
        catchThrowableOfType(
            StatementFailedException.class,
            () -> run("OBJECT {{ inputs.value }} " + k + "x", values("value", SECRET)));

    assertThat(failure.getMessage())
        .isEqualTo("ERR unknown subcommand '{{ inputs.value }}'. Try OBJECT HELP.");
    for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
      assertThat(cause.toString()).doesNotContain(SECRET);
    }
  }

  @Test
  void anOptionalInputWithoutAValueIsRefusedSayingRedisHasNoNullArgument() {
    assertThatThrownBy(() -> run("GET " + k + "{{ inputs.id }}", values("id", null)))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage(
            "the statement uses input `id`, which has no value (a Redis command has no null"
                + " argument: give the input a default or make it required)");
  }

  private static final String SECRET = "my-credit-card-4111";

  private JsonNode run(String source, Map<String, Object> values) {
    return connector.execute(statement(source), values, Deadline.after(TIMEOUT));
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

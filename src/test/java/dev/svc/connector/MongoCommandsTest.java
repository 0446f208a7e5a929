package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.compile.StatementFixture;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Statement;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.Map;
import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Putting values into MongoDB statements, without a server. */
class MongoCommandsTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static MongoCommands.Command render(String command, Map<String, Object> values) {
    Statement.Mongo statement =
        (Statement.Mongo)
            StatementFixture.compile(
                ConnectorKind.MONGODB, "{\"database\": \"d\", \"command\": " + command + "}");
    return MongoCommands.render(statement, values);
  }

  private static Map<String, Object> value(Object v) {
    Map<String, Object> values = new HashMap<>();
    values.put("v", v);
    return values;
  }

  @Test
  void aFindWithoutALimitGetsTheWindowsEndAsItsLimit() {
    MongoCommands.Command find = render("{\"find\": \"c\", \"filter\": {}}", Map.of());
    MongoCommands.Command limited = render("{\"find\": \"c\", \"limit\": 5}", Map.of());
    MongoCommands.Command aggregate =
        render("{\"aggregate\": \"c\", \"pipeline\": [], \"cursor\": {}}", Map.of());
    StatementOptions page = new StatementOptions(2000, 1001, false);

    assertThat(MongoCommands.limited(find, page).toJson())
        .isEqualTo("{\"find\": \"c\", \"filter\": {}, \"limit\": 3001}");
    assertThat(find.command().containsKey("limit")).isFalse(); // the rendered command is kept
    assertThat(MongoCommands.limited(find, StatementOptions.ALL)).isSameAs(find.command());
    assertThat(MongoCommands.limited(limited, page)).isSameAs(limited.command());
    assertThat(MongoCommands.limited(aggregate, page)).isSameAs(aggregate.command());
  }

  @Test
  void eachValueTypeHasItsExtendedJsonForm() {
    String find = "{\"find\": \"c\", \"filter\": {\"a\": {{ inputs.v }}}}";

    assertThat(render(find, value("x\"y")).command().toJson())
        .isEqualTo("{\"find\": \"c\", \"filter\": {\"a\": \"x\\\"y\"}}");
    assertThat(render(find, value(7L)).command().getDocument("filter").get("a").isInt32()).isTrue();
    assertThat(render(find, value(1L << 40)).command().getDocument("filter").get("a").isInt64())
        .isTrue();
    assertThat(render(find, value(1.5)).command().getDocument("filter").getDouble("a").getValue())
        .isEqualTo(1.5);
    assertThat(render(find, value(true)).command().getDocument("filter").getBoolean("a").getValue())
        .isTrue();
    assertThat(render(find, value(null)).command().getDocument("filter").isNull("a")).isTrue();
    assertThat(
            render(find, value(new BigDecimal("12.50")))
                .command()
                .getDocument("filter")
                .get("a")
                .isDecimal128())
        .isTrue();
    assertThat(
            render(find, value(OffsetDateTime.parse("2024-05-01T12:00:00+02:00")))
                .command()
                .getDocument("filter")
                .getDateTime("a")
                .getValue())
        .isEqualTo(OffsetDateTime.parse("2024-05-01T10:00:00Z").toInstant().toEpochMilli());
    assertThat(
            render(find, value(LocalDate.parse("2024-05-01")))
                .command()
                .getDocument("filter")
                .getDateTime("a")
                .getValue())
        .isEqualTo(OffsetDateTime.parse("2024-05-01T00:00:00Z").toInstant().toEpochMilli());
  }

  @Test
  void insideAStringTheValueIsEscapedText() {
    MongoCommands.Command command =
        render(
            "{\"find\": \"c\", \"filter\": {\"name\": \"Dr. {{ inputs.v }}\"}}",
            value("\"}, \"$where\": \"1"));

    assertThat(command.command().getDocument("filter"))
        .isEqualTo(BsonDocument.parse("{\"name\": \"Dr. \\\"}, \\\"$where\\\": \\\"1\"}"));
    assertThat(command.name()).isEqualTo("find");
    assertThat(command.database()).isEqualTo("d");
  }

  @Test
  void structuredValuesMayNotAddKeys() {
    String find = "{\"find\": \"c\", \"filter\": {\"a\": {{ inputs.v }}}}";

    assertThat(
            render(find, value(JSON.readTree("[1, \"x\", [true]]")))
                .command()
                .getDocument("filter")
                .getArray("a"))
        .hasSize(3);
    assertThatThrownBy(() -> render(find, value(JSON.readTree("[{\"$gt\": 1}]"))))
        .isInstanceOf(StatementFailedException.class)
        .hasMessageStartingWith("input `v` holds an array with objects");
    assertThatThrownBy(() -> render(find, value(JSON.readTree("{\"$gt\": 1}"))))
        .hasMessageStartingWith("input `v` holds an object");
  }

  @Test
  void inputsWithoutValuesAreNamed() {
    assertThatThrownBy(
            () -> render("{\"find\": \"c\", \"filter\": {\"a\": {{ inputs.v }}}}", Map.of()))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("the statement uses input `v`, which has no value");
    assertThatThrownBy(() ->
            render("{\"find\": \"c\", \"filter\": {\"a\": \"x{{ inputs.v }}\"}}", value(null)))
        .hasMessage("the statement uses input `v` inside a string, but it has no value");
  }

  @Test
  void aDatabaseFromAClaimMustNotBeEmpty() {
    Statement.Mongo statement =
        (Statement.Mongo)
            StatementFixture.compile(
                ConnectorKind.MONGODB,
                "{\"database\": \"{{ auth.claims.tenant }}\", \"command\": {\"ping\": 1}}");

    assertThatThrownBy(() -> MongoCommands.render(statement, Map.of("auth.claims.tenant", " ")))
        .isInstanceOf(StatementFailedException.class)
        .hasMessage("the MongoDB statement needs a non-empty string `database`");
  }
}

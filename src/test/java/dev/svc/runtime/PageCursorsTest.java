package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Model;
import dev.svc.testing.ProjectFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PageCursorsTest {
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
  private static final String INPUTS = "{\"city\":\"Paris\"}";

  private static PageCursors cursors(String secret, Instant now) {
    return new PageCursors(
        Optional.of(secret.getBytes(StandardCharsets.UTF_8)), Clock.fixed(now, ZoneOffset.UTC));
  }

  private final PageCursors cursors = cursors("s3cret", NOW);

  private static String message(PageCursors.Opened opened) {
    assertThat(opened).isInstanceOf(PageCursors.Opened.Invalid.class);
    return ((PageCursors.Opened.Invalid) opened).message();
  }

  @Test
  void aCursorOpensToItsPositionForTheSameToolAndInputs() {
    String cursor = cursors.mint("find_items", INPUTS, 2000);
    assertThat(cursor).matches("[A-Za-z0-9_-]+");
    assertThat(cursors.open(cursor, "find_items", INPUTS))
        .isEqualTo(new PageCursors.Opened.Valid(2000));
    assertThat(
            cursors("s3cret", NOW.plus(Duration.ofMinutes(15))).open(cursor, "find_items", INPUTS))
        .as("another instance with the same secret, just before expiry")
        .isEqualTo(new PageCursors.Opened.Valid(2000));
  }

  @Test
  void aTamperedCursorIsRefusedAsAltered() {
    String cursor = cursors.mint("find_items", INPUTS, 1000);
    byte[] bytes = Base64.getUrlDecoder().decode(cursor);
    bytes[10] ^= 0x01; // the position, say
    String tampered = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    assertThat(message(cursors.open(tampered, "find_items", INPUTS)))
        .isEqualTo(
            "invalid cursor: it was altered, or made by a server that has restarted since or does"
                + " not share its SVC_CURSOR_SECRET; call again without `cursor` to start over");
    assertThat(message(cursors("other", NOW).open(cursor, "find_items", INPUTS)))
        .startsWith("invalid cursor: it was altered");
  }

  @Test
  void aCursorOfAnotherToolOrOtherInputsIsRefusedSayingSo() {
    String cursor = cursors.mint("find_items", INPUTS, 1000);
    assertThat(message(cursors.open(cursor, "find_users", INPUTS)))
        .isEqualTo(
            "invalid cursor: it belongs to tool `find_items`; pass it to that tool, or call"
                + " without `cursor` for the first page");
    assertThat(message(cursors.open(cursor, "find_items", "{\"city\":\"Lyon\"}")))
        .isEqualTo(
            "invalid cursor: it was made for other inputs; call with the same inputs as the page"
                + " that gave it, or without `cursor` to start over");
  }

  @Test
  void anExpiredCursorIsRefusedSayingHowLongCursorsLast() {
    String cursor = cursors.mint("find_items", INPUTS, 1000);
    PageCursors later = cursors("s3cret", NOW.plus(Duration.ofMinutes(15)).plusSeconds(1));
    assertThat(message(later.open(cursor, "find_items", INPUTS)))
        .isEqualTo(
            "invalid cursor: it expired (cursors last 15 minutes); call again without `cursor` to"
                + " start over");
  }

  @Test
  void malformedCursorsAreRefusedAsNotCursors() {
    String notOurs =
        "invalid cursor: it is not a cursor of this server; pass the `next_cursor` of the previous"
            + " page unchanged, or call without `cursor` for the first page";
    assertThat(message(cursors.open("not base64!", "find_items", INPUTS))).isEqualTo(notOurs);
    assertThat(message(cursors.open("AAAA", "find_items", INPUTS))).isEqualTo(notOurs);
    assertThat(message(cursors.open("A".repeat(5000), "find_items", INPUTS))).isEqualTo(notOurs);
    assertThat(message(cursors.open("", "find_items", INPUTS))).isEqualTo(notOurs);
  }

  @Test
  void withoutASecretTheProcessKeySignsAndAnotherProcessKeyWouldNotOpen() {
    PageCursors process = PageCursors.create(Optional.empty());
    String cursor = process.mint("t", INPUTS, 5);
    assertThat(PageCursors.create(Optional.of("")).open(cursor, "t", INPUTS))
        .as("an empty secret is no secret: the same process key")
        .isEqualTo(new PageCursors.Opened.Valid(5));
    assertThat(message(PageCursors.create(Optional.of("set")).open(cursor, "t", INPUTS)))
        .startsWith("invalid cursor: it was altered");
  }

  @Test
  void cappedReadingSqlToolsAndMongoFindsOfferCursorsOtherToolsDoNot(@TempDir Path dir) {
    Model model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: pages
            == app/adapters/db.terse
            connector: sqlite
            connection_string: ":memory:"
            == app/adapters/docs.terse
            connector: mongodb
            connection_string: "mongodb://localhost:27017"
            == app/adapters/kv.terse
            connector: redis
            connection_string: "redis://localhost:6379/0"
            == app/tools/sql/config.terse
            description: Rows.
            use: db
            statement: SELECT n FROM t ORDER BY n
            == app/tools/insert_returning/config.terse
            description: Writes, so a next page would write again.
            use: db
            statement: INSERT INTO t (n) SELECT n + 1 FROM t RETURNING n
            == app/tools/read_only_function/config.terse
            description: Read-only by its field.
            use: db
            read_only: true
            statement: SELECT * FROM (VALUES (1), (2)) ORDER BY 1
            == app/tools/uncapped/config.terse
            description: Rows, no caps.
            use: db
            statement: SELECT n FROM t ORDER BY n
            max_rows: 0
            max_bytes: 0
            == app/tools/own_cursor/config.terse
            description: Its own cursor input.
            use: db
            statement: SELECT n FROM t WHERE n > {{ inputs.cursor }} ORDER BY n
            inputs:
              cursor: {type: int}
            == app/tools/find/config.terse
            description: Documents.
            use: docs
            statement: '{"database": "d", "command": {"find": "c"}}'
            == app/tools/count/config.terse
            description: A count.
            use: docs
            statement: '{"database": "d", "command": {"count": "c"}}'
            == app/tools/keys/config.terse
            description: A list.
            use: kv
            statement: LRANGE k 0 -1
            == app/tools/hello/config.terse
            description: A handler.
            handler: handler.ts
            == app/tools/hello/handler.ts
            export default () => [1, 2, 3];
            """);
    assertThat(
            model.tools().stream()
                .filter(PageCursors::offeredBy)
                .map(dev.svc.model.Tool::name)
                .sorted())
        .containsExactly("find", "read_only_function", "sql");
    assertThat(InputSchemas.of(model.tool("sql").orElseThrow()).path("properties").has("cursor"))
        .isTrue();
    assertThat(InputSchemas.of(model.tool("keys").orElseThrow()).path("properties").has("cursor"))
        .isFalse();
    assertThat(
            InputSchemas.of(model.tool("own_cursor").orElseThrow())
                .path("properties")
                .path("cursor")
                .path("type")
                .asString())
        .isEqualTo("integer");
  }
}

package dev.svc.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Log line formats, levels, tag filters and the request and trace ids of every line. */
class LogSinkTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  @AfterEach
  void restore() {
    LogContext.traceIds(Optional.empty());
    LogSink.configure(Level.INFO, LogFormat.TEXT, TagFilter.ALL, System.err, Optional.empty());
  }

  private void configure(Level level, LogFormat format, String tags) {
    LogSink.configure(
        level,
        format,
        TagFilter.parse(tags),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        Optional.empty());
  }

  private String written() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void jsonLinesCarryTimeLevelTagMessageFieldsAndTheRequestId() {
    configure(Level.INFO, LogFormat.JSON, "");
    ScopedValue.where(LogContext.REQUEST_ID, "abc123")
        .run(() -> Log.tagged("db").info("adapter ready", "adapter", "shop", "ms", 12));
    JsonNode line = JsonMapper.builder().build().readTree(written().strip());
    assertThat(line.path("level").asString()).isEqualTo("info");
    assertThat(line.path("tag").asString()).isEqualTo("db");
    assertThat(line.path("msg").asString()).isEqualTo("adapter ready");
    assertThat(line.path("request_id").asString()).isEqualTo("abc123");
    assertThat(line.path("adapter").asString()).isEqualTo("shop");
    assertThat(line.path("ms").asInt()).isEqualTo(12);
    assertThat(line.path("time").asString()).endsWith("Z");
  }

  @Test
  void textLinesQuoteValuesWithSpaces() {
    configure(Level.INFO, LogFormat.TEXT, "");
    Log.tagged("svc").warn("slow start", "reason", "two words");
    assertThat(written()).contains("WARN  [svc] slow start reason=\"two words\"");
  }

  @Test
  void noMessageOrValueCanEndALineOrDriveATerminal() {
    // NEL (U+0085) and U+2028/U+2029 end a line for many line readers (Python's splitlines, \\R);
    // ESC and CSI (U+009B) drive terminals. Jetty reads header bytes 0x80-0xFF as those characters.
    String forged =
        "a\r\nERROR [svc] forged\u0085ERROR forged\u2028forged\u2029\u001b[31m\u009b2J\u007f\u0000z";
    for (LogFormat format : LogFormat.values()) {
      out.reset();
      configure(Level.INFO, format, "");
      Log.tagged("http").warn(forged, "host", forged);
      String line = written();
      assertThat(line).as(format.name()).endsWith("\n");
      String body = line.substring(0, line.length() - 1);
      assertThat(body.chars().filter(LogSinkTest::breaksLines).count())
          .as(format + ": " + body)
          .isZero();
      if (format == LogFormat.JSON) {
        JsonNode json = JsonMapper.builder().build().readTree(body);
        assertThat(json.path("msg").asString()).isEqualTo(forged);
        assertThat(json.path("host").asString()).isEqualTo(forged);
      }
    }
  }

  private static boolean breaksLines(int c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029;
  }

  @Test
  void levelsAboveTheConfiguredOneAreDropped() {
    configure(Level.WARN, LogFormat.TEXT, "");
    Log.tagged("svc").info("hidden");
    Log.tagged("svc").debug("hidden too");
    Log.tagged("svc").error("shown");
    assertThat(written()).doesNotContain("hidden").contains("shown");
  }

  @Test
  void tagFiltersIncludeByPrefixAndExcludesWin() {
    configure(Level.DEBUG, LogFormat.TEXT, "db,script,-db:redis");
    Log.tagged("db").child("postgres").info("pg line");
    Log.tagged("db:redis").info("redis line");
    Log.tagged("script:get_item").info("script line");
    Log.tagged("dbx").info("other tag");
    Log.tagged("http").info("http line");
    assertThat(written())
        .contains("pg line", "script line")
        .doesNotContain("redis line", "other tag", "http line");
  }

  @Test
  void onlyExcludesKeepEverythingElse() {
    configure(Level.INFO, LogFormat.TEXT, "-http");
    Log.tagged("http").info("http line");
    Log.tagged("mcp").info("mcp line");
    assertThat(written()).contains("mcp line").doesNotContain("http line");
  }

  @Test
  void whenTracingIsOnLinesCarryTheTraceAndSpanIds() {
    configure(Level.INFO, LogFormat.JSON, "");
    LogContext.traceIds(
        Optional.of(() -> Optional.of(new LogContext.TraceIds.Ids("4bf92f35", "00f067aa"))));
    Log.tagged("tool").info("tool call");
    assertThat(written()).contains("\"trace_id\":\"4bf92f35\",\"span_id\":\"00f067aa\"");
  }

  @Test
  void libraryLoggersAreTaggedAndTheirInfoIsDebug() {
    configure(Level.INFO, LogFormat.JSON, "");
    org.slf4j.Logger jetty = new Slf4jProvider.LibraryLogger("org.eclipse.jetty.server.Server");
    jetty.info("Started {}", "Server@1");
    jetty.warn("bad message {}", 400);
    assertThat(written())
        .doesNotContain("Started")
        .contains("\"tag\":\"http\"", "\"msg\":\"bad message 400\"")
        .contains("\"logger\":\"org.eclipse.jetty.server.Server\"");
    assertThat(Slf4jProvider.tag("com.mongodb.driver.cluster")).isEqualTo("db:mongodb");
    assertThat(Slf4jProvider.tag("redis.clients.jedis.Connection")).isEqualTo("db:redis");
    assertThat(Slf4jProvider.tag("com.google.auth")).isEqualTo("lib");
  }

  @Test
  void jettysParserWarningsAboutWhatAClientSentAreDebug() {
    // every request with a second Host header made Jetty warn, quoting the client's values
    configure(Level.INFO, LogFormat.JSON, "");
    org.slf4j.Logger parser = new Slf4jProvider.LibraryLogger("org.eclipse.jetty.http.HttpParser");
    parser.warn(
        "Encountered multiple `Host` headers.  Previous `Host` header already seen as `{}`, new"
            + " `Host` header has appeared as `{}`",
        "localhost",
        "a".repeat(7000));
    assertThat(parser.isWarnEnabled()).isFalse();
    assertThat(written()).isEmpty();

    configure(Level.DEBUG, LogFormat.JSON, "");
    parser.warn("Encountered multiple `Host` headers: {}", "evil.example");
    assertThat(written()).contains("\"level\":\"debug\"", "evil.example");
  }

  @Test
  void slf4jFindsSvcsProvider() {
    assertThat(org.slf4j.LoggerFactory.getILoggerFactory().getClass().getName())
        .isEqualTo("dev.svc.log.Slf4jProvider$Loggers");
  }
}

package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.json.Json;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The v1 ProtoJSON wire records: absent, null and unknown fields, enum names, omitted defaults. */
class WireTest {
  static JsonNode json(String text) {
    return Json.MAPPER.readTree(text);
  }

  static int code(Runnable read) {
    try {
      read.run();
    } catch (JsonRpcException e) {
      return e.error().code();
    }
    throw new AssertionError("no error");
  }

  @Test
  void aTimestampBeyondEpochMillisecondsIsInvalidParams() {
    // the shared stores compare status times in epoch milliseconds: ListTasks with this
    // statusTimestampAfter overflowed there (ArithmeticException) and answered -32603
    assertThat(
            code(() -> Wire.parseTimestamp("+999999999-12-31T23:59:59Z", "statusTimestampAfter")))
        .isEqualTo(-32602);
    assertThat(code(() -> Wire.parseTimestamp("-999999999-01-01T00:00:00Z", "t")))
        .isEqualTo(-32602);
    assertThat(Wire.parseTimestamp("+292278994-08-17T07:12:55.807Z", "t").toEpochMilli())
        .isEqualTo(Long.MAX_VALUE);
    assertThat(Wire.parseTimestamp("2026-01-31T12:00:00+01:00", "t"))
        .isEqualTo(Instant.parse("2026-01-31T11:00:00Z"));
  }

  @Test
  void depthCountsContainersAndStopsAtTheBound() {
    assertThat(Wire.deeperThan(json("7"), 0)).isFalse();
    assertThat(Wire.deeperThan(json("{}"), 0)).isTrue();
    assertThat(Wire.deeperThan(json("{\"a\":[1,{\"b\":[]}]}"), 4)).isFalse();
    assertThat(Wire.deeperThan(json("{\"a\":[1,{\"b\":[]}]}"), 3)).isTrue();
    assertThat(Wire.deeperThan(json("[".repeat(400) + "]".repeat(400)), Wire.MAX_JSON_DEPTH))
        .isTrue();
  }

  @Test
  void identifiersAClientChoosesAreAtMost512Characters() {
    // stored and indexed by the shared task stores: 3,000 characters got PostgreSQL's "index row
    // size exceeds maximum" reported as an unavailable store, and 2 MB context ids let ListTasks
    // on Redis end the process
    String longest = "c".repeat(Wire.MAX_ID_CHARS);
    String message =
        "{\"messageId\":\"m-1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}],"
            + "\"contextId\":\"%s\"}";
    assertThat(Message.fromJson(json(message.formatted(longest)), "message").contextId())
        .contains(longest);
    assertThatThrownBy(() -> Message.fromJson(json(message.formatted(longest + "c")), "message"))
        .isInstanceOf(JsonRpcException.class)
        .hasMessageContaining("`message.contextId` is at most 512 characters (this one has 513)");
    assertThat(
            code(() ->
                Message.fromJson(
                    json(
                        "{\"messageId\":\""
                            + "m".repeat(600)
                            + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}"),
                    "message")))
        .isEqualTo(-32602);
  }

  @Test
  void aMessageAsTheSdkSendsItIsRead() {
    Message message =
        Message.fromJson(
            json(
                "{\"messageId\":\"m-1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\",\"mediaType\":\"text/plain\"}]}"),
            "message");
    assertThat(message.messageId()).isEqualTo("m-1");
    assertThat(message.role()).isEqualTo(Role.USER);
    assertThat(message.contextId()).isEmpty();
    assertThat(message.parts()).containsExactly(Part.text("hi"));
  }

  @Test
  void nullFieldsAreAbsentAndUnknownFieldsAreIgnored() {
    Message message =
        Message.fromJson(
            json(
                "{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"contextId\":null,\"taskId\":\"\",\"metadata\":null,"
                    + "\"extensions\":null,\"futureField\":{\"x\":1},\"parts\":[{\"text\":\"a\",\"somethingNew\":true}]}"),
            "message");
    assertThat(message.contextId()).isEmpty();
    assertThat(message.taskId()).isEmpty();
    assertThat(message.metadata()).isEmpty();
    assertThat(message.extensions()).isEmpty();
    assertThat(message.toJson().toString())
        .isEqualTo("{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"a\"}]}");
  }

  @Test
  void aMessageNeedsAnIdARoleAndParts() {
    assertThat(
            code(() ->
                Message.fromJson(
                    json("{\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"a\"}]}"), "message")))
        .isEqualTo(-32602);
    assertThat(
            code(() ->
                Message.fromJson(
                    json("{\"messageId\":\"m\",\"parts\":[{\"text\":\"a\"}]}"), "message")))
        .isEqualTo(-32602);
    assertThat(
            code(() ->
                Message.fromJson(
                    json(
                        "{\"messageId\":\"m\",\"role\":\"ROLE_UNSPECIFIED\",\"parts\":[{\"text\":\"a\"}]}"),
                    "message")))
        .isEqualTo(-32602);
    assertThat(
            code(() ->
                Message.fromJson(
                    json("{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[]}"), "message")))
        .isEqualTo(-32602);
    assertThatThrownBy(() ->
            Message.fromJson(
                json("{\"messageId\":7,\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"a\"}]}"),
                "message"))
        .hasMessage("Invalid params: `message.messageId` must be a string");
  }

  @Test
  void theV03RoleSpellingIsAccepted() {
    Message message =
        Message.fromJson(
            json("{\"messageId\":\"m\",\"role\":\"user\",\"parts\":[{\"text\":\"a\"}]}"),
            "message");
    assertThat(message.role()).isEqualTo(Role.USER);
  }

  @Test
  void aPartHasExactlyOneContent() {
    assertThat(Part.fromJson(json("{\"raw\":\"aGk=\",\"filename\":\"a.txt\"}"), "p").content())
        .isEqualTo(new Part.Raw("aGk="));
    assertThat(Part.fromJson(json("{\"url\":\"https://x/a.png\"}"), "p").content())
        .isEqualTo(new Part.Url("https://x/a.png"));
    assertThat(Part.fromJson(json("{\"data\":[1,2]}"), "p").content())
        .isEqualTo(new Part.Data(json("[1,2]")));
    assertThatThrownBy(
            () -> Part.fromJson(json("{\"text\":\"a\",\"url\":\"https://x\"}"), "message.parts[0]"))
        .hasMessageContaining("`message.parts[0]` must have exactly one of");
    assertThatThrownBy(() -> Part.fromJson(json("{\"kind\":\"text\"}"), "p"))
        .isInstanceOf(JsonRpcException.class);
  }

  @Test
  void taskStatesAreProtoEnumNames() {
    assertThat(TaskState.COMPLETED.wireName()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(TaskState.parse("TASK_STATE_INPUT_REQUIRED")).contains(TaskState.INPUT_REQUIRED);
    assertThat(TaskState.parse("canceled")).contains(TaskState.CANCELED);
    assertThat(TaskState.parse("done")).isEmpty();
    assertThat(List.of(TaskState.values()).stream().filter(TaskState::isTerminal))
        .containsExactly(
            TaskState.COMPLETED, TaskState.FAILED, TaskState.CANCELED, TaskState.REJECTED);
  }

  @Test
  void aTaskOmitsEmptyListsAndShowsHistoryAsAsked() {
    Instant at = Instant.parse("2026-11-22T00:44:02.009123Z");
    Message user =
        Message.fromJson(
            json("{\"messageId\":\"u\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"a\"}]}"), "m");
    Task task =
        new Task(
            "t",
            "c",
            TaskStatus.of(TaskState.SUBMITTED, at),
            List.of(),
            List.of(user, Message.agent("b", "c", "t")),
            Optional.empty());
    assertThat(task.view(Optional.of(0), true).toJson().toString())
        .isEqualTo(
            "{\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\",\"timestamp\":\"2026-11-22T00:44:02.009Z\"}}");
    assertThat(task.view(Optional.of(1), true).history()).hasSize(1);
    assertThat(task.view(Optional.of(1), true).history().get(0).role()).isEqualTo(Role.AGENT);
    assertThat(task.view(Optional.empty(), true).history()).hasSize(2);
  }

  @Test
  void streamEventsHaveNoKindAndOmitFalseFlags() {
    Artifact artifact = Artifact.text("a1", "answer", "hi");
    assertThat(
            new StreamResponse.ArtifactUpdate("t", "c", artifact, false, false).toJson().toString())
        .isEqualTo(
            "{\"artifactUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"artifact\":{\"artifactId\":\"a1\",\"name\":\"answer\",\"parts\":[{\"text\":\"hi\",\"mediaType\":\"text/plain\"}]}}}");
    assertThat(
            new StreamResponse.ArtifactUpdate("t", "c", artifact, true, true)
                .toJson()
                .path("artifactUpdate")
                .toString())
        .contains("\"append\":true,\"lastChunk\":true");
    assertThat(
            new StreamResponse.StatusUpdate(
                    "t", "c", TaskStatus.of(TaskState.WORKING, Instant.EPOCH))
                .toJson()
                .toString())
        .isEqualTo(
            "{\"statusUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_WORKING\",\"timestamp\":\"1970-01-01T00:00:00.000Z\"}}}");
  }

  @Test
  void aPushConfigNeedsAnHttpUrl() {
    PushConfig config =
        PushConfig.fromJson(
            json(
                "{\"url\":\"https://h.example.com/x\",\"token\":\"t\",\"authentication\":{\"scheme\":\"Bearer\",\"credentials\":\"c\"},\"tenant\":\"\"}"),
            "c");
    assertThat(config.id()).isEmpty();
    assertThat(config.authentication()).contains(new PushConfig.Authentication("Bearer", "c"));
    assertThat(config.withIds("i", "t").toJson().toString())
        .isEqualTo(
            "{\"id\":\"i\",\"taskId\":\"t\",\"url\":\"https://h.example.com/x\",\"token\":\"t\",\"authentication\":{\"scheme\":\"Bearer\",\"credentials\":\"c\"}}");
    assertThat(code(() -> PushConfig.fromJson(json("{\"url\":\"file:///etc/passwd\"}"), "c")))
        .isEqualTo(-32602);
    assertThat(code(() -> PushConfig.fromJson(json("{\"url\":\"not a url\"}"), "c")))
        .isEqualTo(-32602);
    assertThat(code(() -> PushConfig.fromJson(json("{}"), "c"))).isEqualTo(-32602);
  }

  @Test
  void theSendConfigurationDefaultsToBlocking() {
    SendConfiguration empty = SendConfiguration.fromJson(json("{}"), "configuration");
    assertThat(empty.returnImmediately()).isFalse();
    assertThat(empty.historyLength()).isEmpty();
    SendConfiguration set =
        SendConfiguration.fromJson(
            json(
                "{\"returnImmediately\":true,\"historyLength\":\"2\",\"acceptedOutputModes\":[\"text/plain\"],\"blocking\":false}"),
            "configuration");
    assertThat(set.returnImmediately()).isTrue();
    assertThat(set.historyLength()).contains(2);
    assertThat(
            code(() -> SendConfiguration.fromJson(json("{\"historyLength\":-1}"), "configuration")))
        .isEqualTo(-32602);
    assertThat(
            code(() ->
                SendConfiguration.fromJson(
                    json("{\"returnImmediately\":\"yes\"}"), "configuration")))
        .isEqualTo(-32602);
  }

  @Test
  void errorsCarryTheirCodeAndAnErrorInfo() {
    JsonRpcException error = A2aErrors.taskNotCancelable("t1", TaskState.COMPLETED);
    assertThat(error.error().code()).isEqualTo(-32002);
    assertThat(error.error().data().orElseThrow().toString())
        .isEqualTo(
            "[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_CANCELABLE\",\"domain\":\"a2a-protocol.org\"}]");
    assertThat(A2aErrors.unsupportedOperation("x").error().code()).isEqualTo(-32004);
    assertThat(A2aErrors.contentTypeNotSupported("x").error().code()).isEqualTo(-32005);
    assertThat(A2aErrors.versionNotSupported("0.3").error().code()).isEqualTo(-32009);
    assertThat(A2aErrors.taskNotFound("x").error().code()).isEqualTo(-32001);
  }

  @Test
  void pageTokensRoundTripAndBadOnesAreInvalidParams() {
    TaskStore.Cursor cursor = new TaskStore.Cursor(Instant.ofEpochMilli(1_700_000_000_123L), "t|1");
    assertThat(A2aMethods.cursor(A2aMethods.token(cursor))).isEqualTo(cursor);
    assertThat(code(() -> A2aMethods.cursor("bm9waXBl"))).isEqualTo(-32602);
  }

  @Test
  void timestampsAreWrittenAndReadAsJavaTimeDoesForAnyInstant() {
    java.util.Random random = new java.util.Random(42);
    java.time.format.DateTimeFormatter formatter =
        java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(java.time.ZoneOffset.UTC);
    long min = java.time.LocalDate.of(1, 1, 1).toEpochDay() * 86_400;
    long max = java.time.LocalDate.of(9999, 12, 31).toEpochDay() * 86_400 + 86_399;
    List<Instant> instants =
        new java.util.ArrayList<>(
            List.of(
                Instant.EPOCH,
                Instant.ofEpochSecond(min),
                Instant.ofEpochSecond(max, 999_999_999),
                Instant.parse("2024-02-29T23:59:59.999Z"),
                Instant.parse("1969-12-31T23:59:59.001Z")));
    for (int i = 0; i < 20_000; i++) {
      instants.add(
          Instant.ofEpochSecond(
              min + Math.floorMod(random.nextLong(), max - min), random.nextInt(1_000_000_000)));
    }
    // outside years 1 to 9999 the formatter writes (no round trip: years of era)
    for (Instant outside :
        List.of(Instant.ofEpochSecond(min - 1), Instant.ofEpochSecond(max + 1))) {
      assertThat(Wire.timestamp(outside)).isEqualTo(formatter.format(outside));
    }
    for (Instant instant : instants) {
      Instant millis = instant.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
      String written = Wire.timestamp(instant);
      assertThat(written).isEqualTo(formatter.format(millis));
      assertThat(Wire.parseTimestamp(written, "t")).isEqualTo(millis);
    }
  }

  @Test
  void timestampsInOtherFormsAreReadByJavaTimeAndNonsenseIsRefused() {
    assertThat(Wire.parseTimestamp("2026-03-01T10:00:01Z", "t"))
        .isEqualTo(Instant.parse("2026-03-01T10:00:01Z"));
    assertThat(Wire.parseTimestamp("2026-03-01T10:00:01.123456789Z", "t"))
        .isEqualTo(Instant.parse("2026-03-01T10:00:01.123456789Z"));
    assertThat(Wire.parseTimestamp("2026-03-01T12:00:01+02:00", "t"))
        .isEqualTo(Instant.parse("2026-03-01T10:00:01Z"));
    assertThat(Wire.parseTimestamp("2026-03-01t10:00:01.5z", "t"))
        .isEqualTo(Instant.parse("2026-03-01T10:00:01.500Z"));
    for (String nonsense :
        List.of(
            "2026-02-30T10:00:00Z",
            "2026-13-01T10:00:00Z",
            "2026-03-01T10:60:00Z",
            "2026-03-01T10:00:00.1234567890Z",
            "2026-03-01 10:00:00Z",
            "+2026-03-01T10:00:0Z",
            "yesterday")) {
      assertThat(code(() -> Wire.parseTimestamp(nonsense, "t"))).as(nonsense).isEqualTo(-32602);
    }
  }
}

package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.auth.Principal;
import dev.svc.call.ClientRequest;
import dev.svc.call.ClientRequestException;
import dev.svc.call.ClientRequests;
import dev.svc.json.Json;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** MRTR rounds of a 2026-07-28 tools/call, without I/O: questions, answers, the signed state. */
class InputRoundsTest {
  private static final Instant NOW = Instant.parse("2026-08-01T10:00:00Z");
  private static final Principal ALICE = new Principal("key:" + "a".repeat(64));
  private static final ClientCapabilities ELICITATION =
      new ClientCapabilities(Set.of("elicitation"));
  private static final ClientCapabilities ALL =
      new ClientCapabilities(Set.of("elicitation", "sampling", "roots"));

  private final RequestStates states = SessionTokens.create(Optional.of("k")).requestStates();

  private static ObjectNode params(String tool, String argumentsJson) {
    ObjectNode params = Json.NODES.objectNode();
    params.put("name", tool);
    params.set("arguments", Json.MAPPER.readTree(argumentsJson));
    return params;
  }

  private static ClientRequest.Elicitation question(String message) {
    ObjectNode schema = Json.NODES.objectNode().put("type", "object");
    schema.putObject("properties");
    return new ClientRequest.Elicitation(message, schema);
  }

  private static JsonNode accept(String content) {
    ObjectNode answer = Json.NODES.objectNode().put("action", "accept");
    answer.set("content", Json.MAPPER.readTree(content));
    return answer;
  }

  private InputRounds open(ObjectNode params, Principal who, ClientCapabilities caps, Instant at) {
    return InputRounds.open(states, params, who, caps, at);
  }

  /** Round one of {@code params}: asks {@code count} questions, returns the input_required. */
  private ObjectNode firstRound(ObjectNode params, int count) {
    InputRounds round = open(params, ALICE, ALL, NOW);
    for (int i = 1; i <= count; i++) {
      assertThat(round.ask(question("q" + i))).isInstanceOf(ClientRequests.Answer.NextRound.class);
    }
    return round.inputRequired();
  }

  private static ObjectNode retry(ObjectNode params, ObjectNode previous, String responsesJson) {
    ObjectNode again = params.deepCopy();
    again.set("requestState", previous.get("requestState"));
    again.set("inputResponses", Json.MAPPER.readTree(responsesJson));
    return again;
  }

  private static JsonNode answerOf(ClientRequests.Answer answer) throws Exception {
    assertThat(answer).isInstanceOf(ClientRequests.Answer.Coming.class);
    return ((ClientRequests.Answer.Coming) answer).result().get();
  }

  @Test
  void aQuestionWithoutAnAnswerEndsTheRoundAsInputRequiredWithNumberedKeys() {
    ObjectNode result = firstRound(params("delete", "{\"id\":1}"), 2);

    assertThat(result.path("resultType").asString()).isEqualTo("input_required");
    assertThat(result.path("inputRequests").propertyNames()).containsExactly("input-1", "input-2");
    JsonNode first = result.path("inputRequests").path("input-1");
    assertThat(first.path("method").asString()).isEqualTo("elicitation/create");
    assertThat(first.path("params").path("message").asString()).isEqualTo("q1");
    assertThat(first.path("params").path("requestedSchema").path("type").asString())
        .isEqualTo("object");
    assertThat(result.path("requestState").isString()).isTrue();
  }

  @Test
  void aRetryAnswersFromItsInputResponsesAndTheNextQuestionStartsAnotherRound() throws Exception {
    ObjectNode params = params("delete", "{\"id\":1}");
    ObjectNode round1 = firstRound(params, 1);

    InputRounds round2 =
        open(retry(params, round1, "{\"input-1\": {\"action\":\"accept\"}}"), ALICE, ALL, NOW);
    assertThat(answerOf(round2.ask(question("q1"))).path("action").asString()).isEqualTo("accept");
    assertThat(round2.ask(question("q2"))).isInstanceOf(ClientRequests.Answer.NextRound.class);
    ObjectNode result2 = round2.inputRequired();
    assertThat(result2.path("inputRequests").propertyNames()).containsExactly("input-2");

    // round three: the first answer comes from the state, the second from the retry
    InputRounds round3 =
        open(
            retry(params, result2, "{\"input-2\": {\"action\":\"decline\"}}"),
            ALICE,
            ALL,
            NOW.plusSeconds(60));
    assertThat(answerOf(round3.ask(question("q1"))).path("action").asString()).isEqualTo("accept");
    assertThat(answerOf(round3.ask(question("q2"))).path("action").asString()).isEqualTo("decline");
    assertThat(round3.waitsForInput()).isFalse();
    ObjectNode done = Json.NODES.objectNode().put("resultType", "complete");
    assertThat(round3.complete(done)).isSameAs(done);
  }

  @Test
  void answersCarryTheirContent() throws Exception {
    ObjectNode params = params("ask_name", "{}");
    ObjectNode round1 = firstRound(params, 1);
    InputRounds round2 =
        open(
            retry(
                params,
                round1,
                "{\"input-1\": {\"action\":\"accept\",\"content\":{\"name\":\"Alice\"}}}"),
            ALICE,
            ALL,
            NOW);
    assertThat(answerOf(round2.ask(question("q1")))).isEqualTo(accept("{\"name\":\"Alice\"}"));
  }

  @Test
  void unknownInputResponseKeysAreIgnored() {
    ObjectNode params = params("delete", "{\"id\":1}");
    ObjectNode round1 = firstRound(params, 1);
    InputRounds round2 =
        open(
            retry(params, round1, "{\"input-7\": {\"action\":\"accept\"}, \"x\": 1}"),
            ALICE,
            ALL,
            NOW);
    assertThat(round2.ask(question("q1"))).isInstanceOf(ClientRequests.Answer.NextRound.class);
  }

  @Test
  void inputResponsesWithoutAStateAnswerNothing() {
    ObjectNode params = params("delete", "{\"id\":1}");
    params.set("inputResponses", Json.MAPPER.readTree("{\"input-1\": {\"action\":\"accept\"}}"));
    InputRounds round = open(params, ALICE, ALL, NOW);
    assertThat(round.ask(question("q1"))).isInstanceOf(ClientRequests.Answer.NextRound.class);
  }

  @Test
  void aTamperedStateIsRefusedWithInvalidParams() {
    ObjectNode params = params("delete", "{\"id\":1}");
    ObjectNode round1 = firstRound(params, 1);
    String state = round1.path("requestState").asString();
    char last = state.charAt(state.length() - 1);
    String tampered = state.substring(0, state.length() - 1) + (last == 'A' ? 'B' : 'A');
    ObjectNode again = retry(params, round1, "{}");
    again.put("requestState", tampered);

    assertThatThrownBy(() -> open(again, ALICE, ALL, NOW))
        .isInstanceOfSatisfying(
            JsonRpcException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
        .hasMessageContaining("was not issued by this server or was altered");
  }

  @Test
  void garbageStatesAreRefusedWithInvalidParams() {
    ObjectNode params = params("delete", "{\"id\":1}");
    for (String garbage : new String[] {"", ".", "abc", "a.b.c", "!!!.???", "x".repeat(2 << 20)}) {
      ObjectNode again = params.deepCopy().put("requestState", garbage);
      assertThatThrownBy(() -> open(again, ALICE, ALL, NOW))
          .isInstanceOfSatisfying(
              JsonRpcException.class, e -> assertThat(e.error().code()).isEqualTo(-32602));
    }
    ObjectNode notAString = params.deepCopy();
    notAString.set("requestState", Json.NODES.objectNode());
    assertThatThrownBy(() -> open(notAString, ALICE, ALL, NOW))
        .hasMessageContaining("`requestState` must be the string svc sent");
    ObjectNode badResponses = params.deepCopy();
    badResponses.set("inputResponses", Json.NODES.arrayNode());
    assertThatThrownBy(() -> open(badResponses, ALICE, ALL, NOW))
        .hasMessageContaining("`inputResponses` must be an object");
  }

  @Test
  void aStateSignedWithAnotherKeyIsRefused() {
    ObjectNode params = params("delete", "{\"id\":1}");
    ObjectNode round1 = firstRound(params, 1);
    RequestStates other = SessionTokens.create(Optional.of("other")).requestStates();
    assertThatThrownBy(() -> InputRounds.open(other, retry(params, round1, "{}"), ALICE, ALL, NOW))
        .hasMessageContaining("was not issued by this server");
  }

  @Test
  void anExpiredStateIsRefused() {
    ObjectNode params = params("delete", "{\"id\":1}");
    ObjectNode round1 = firstRound(params, 1);
    assertThatThrownBy(() ->
            open(
                retry(params, round1, "{}"),
                ALICE,
                ALL,
                NOW.plus(InputRounds.LIFETIME).plusSeconds(1)))
        .isInstanceOfSatisfying(
            JsonRpcException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
        .hasMessageContaining("expired");
  }

  @Test
  void aStateIsBoundToItsToolItsArgumentsAndItsCaller() {
    ObjectNode params = params("delete", "{\"id\":1}");
    ObjectNode round1 = firstRound(params, 1);

    ObjectNode otherTool = retry(params("drop", "{\"id\":1}"), round1, "{}");
    ObjectNode otherArguments = retry(params("delete", "{\"id\":2}"), round1, "{}");
    for (ObjectNode foreign : new ObjectNode[] {otherTool, otherArguments}) {
      assertThatThrownBy(() -> open(foreign, ALICE, ALL, NOW))
          .hasMessageContaining("belongs to another call");
    }
    assertThatThrownBy(() -> open(retry(params, round1, "{}"), Principal.ANONYMOUS, ALL, NOW))
        .hasMessageContaining("belongs to another call");
    // the same arguments written in another key order are the same call
    ObjectNode reordered = params("delete", "{\"b\":2,\"a\":1}");
    ObjectNode reorderedRound = firstRound(reordered, 1);
    open(retry(params("delete", "{\"a\":1,\"b\":2}"), reorderedRound, "{}"), ALICE, ALL, NOW);
  }

  @Test
  void aMalformedAnswerToARecordedQuestionIsRefused() {
    ObjectNode params = params("delete", "{\"id\":1}");
    ObjectNode round1 = firstRound(params, 1);
    assertThatThrownBy(() ->
            open(retry(params, round1, "{\"input-1\": {\"action\":\"maybe\"}}"), ALICE, ALL, NOW))
        .isInstanceOfSatisfying(
            JsonRpcException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
        .hasMessageContaining(
            "`inputResponses.input-1` is not a valid answer to elicitation/create");
    assertThatThrownBy(() -> open(retry(params, round1, "{\"input-1\": \"yes\"}"), ALICE, ALL, NOW))
        .hasMessageContaining("the result is not an object");
  }

  @Test
  void aQuestionWithoutTheDeclaredCapabilityFailsTheCallWithMissingCapability() {
    InputRounds round = open(params("summarise", "{}"), ALICE, ELICITATION, NOW);
    ObjectNode sampling = Json.NODES.objectNode();
    sampling.putArray("messages");
    ClientRequests.Answer answer = round.ask(new ClientRequest.Sampling(sampling));

    CompletableFuture<JsonNode> result = ((ClientRequests.Answer.Coming) answer).result();
    assertThatThrownBy(result::get)
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(ClientRequestException.class);
    assertThatThrownBy(() -> round.complete(Json.NODES.objectNode()))
        .isInstanceOfSatisfying(
            JsonRpcException.class,
            e -> {
              assertThat(e.error().code()).isEqualTo(-32021);
              assertThat(e.error().data().orElseThrow().toString())
                  .isEqualTo("{\"requiredCapabilities\":{\"sampling\":{}}}");
            });
  }

  @Test
  void declaredCapabilitiesAreWhatTheRequestDeclared() {
    InputRounds round = open(params("t", "{}"), ALICE, ELICITATION, NOW);
    assertThat(round.declares("elicitation")).isTrue();
    assertThat(round.declares("sampling")).isFalse();
  }

  @Test
  void aToolThatAsksSomethingElseOnARetryGetsAClearFailure() {
    ObjectNode params = params("t", "{}");
    ObjectNode round1 = firstRound(params, 1);
    InputRounds round2 =
        open(retry(params, round1, "{\"input-1\": {\"action\":\"accept\"}}"), ALICE, ALL, NOW);
    ClientRequests.Answer answer = round2.ask(new ClientRequest.Roots());
    assertThatThrownBy(((ClientRequests.Answer.Coming) answer).result()::get)
        .hasMessageContaining("a tool must ask the same questions in the same order");
  }

  @Test
  void inputRequiredWithoutAnUnansweredQuestionIsAProgrammingError() {
    InputRounds round = open(params("t", "{}"), ALICE, ALL, NOW);
    assertThatThrownBy(round::inputRequired).isInstanceOf(IllegalStateException.class);
  }
}

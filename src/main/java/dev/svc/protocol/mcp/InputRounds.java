package dev.svc.protocol.mcp;

import dev.svc.auth.Principal;
import dev.svc.call.ClientRequest;
import dev.svc.call.ClientRequestException;
import dev.svc.call.ClientRequests;
import dev.svc.json.Json;
import dev.svc.protocol.jsonrpc.ErrorCodes;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One round of a 2026-07-28 {@code tools/call} under MRTR (multi round-trip requests): how the call
 * asks its client when the client answers by retrying the call. The tool runs again from the start
 * on every round; its questions are numbered in the order it asks them ({@code input-1}, {@code
 * input-2}, …). A question answered in an earlier round (kept in the signed {@code requestState})
 * or by this retry's {@code inputResponses} is answered at once; the others are recorded, never
 * settled, and the call ends with {@link #inputRequired()} instead of a result.
 *
 * <p>{@code requestState} is attacker-controlled: it is signed ({@link RequestStates}) and bound to
 * the tool, a SHA-256 of the arguments, the caller's principal and an expiry ({@link #LIFETIME}). A
 * state that was altered, expired or made for another call is refused with {@code -32602}. A
 * question whose capability the request's {@code _meta} did not declare fails the call with {@code
 * -32021} ({@link #complete}). Unknown {@code inputResponses} keys are ignored.
 *
 * <p>No I/O: the protocol edge opens a round per request and turns its ending into the response.
 */
public final class InputRounds implements ClientRequests {
  /** How long a {@code requestState} may be echoed back. */
  public static final Duration LIFETIME = Duration.ofMinutes(10);

  private static final String KEY_PREFIX = "input-";
  private static final Pattern VALID_KEY = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  private final RequestStates states;

  /** What the call's state is bound to; worked out when first needed (most calls never ask). */
  private final Supplier<Binding> binding;

  private final ClientCapabilities declared;
  private final Instant now;

  /** Answers known this round, by key: from earlier rounds and from this retry. */
  private final Map<String, Answered> answers;

  /** Questions asked this round that have no answer yet, by key, in ask order. */
  private final Map<String, ClientRequest> unanswered = new LinkedHashMap<>();

  private final TreeSet<String> missing = new TreeSet<>();
  private int asked;

  private record Answered(String method, JsonNode result) {}

  /** What a state is bound to: the same call, by the same caller. */
  private record Binding(String tool, String argumentsDigest, String principal) {}

  private InputRounds(
      RequestStates states,
      Supplier<Binding> binding,
      ClientCapabilities declared,
      Instant now,
      Map<String, Answered> answers) {
    this.states = states;
    this.binding = binding;
    this.declared = declared;
    this.now = now;
    this.answers = answers;
  }

  /**
   * Opens the round of a {@code tools/call}: checks its {@code requestState} and takes the answers
   * it and {@code inputResponses} carry.
   *
   * @param params the request's params ({@code name}, {@code arguments}, {@code inputResponses},
   *     {@code requestState})
   * @param declared the capabilities of the request's {@code _meta}
   * @throws JsonRpcException {@code -32602} for a malformed, altered, expired or foreign state, or
   *     a malformed answer to a question the state records
   */
  public static InputRounds open(
      RequestStates states,
      ObjectNode params,
      Principal principal,
      ClientCapabilities declared,
      Instant now) {
    Supplier<Binding> binding = bindingOf(params, principal);
    Map<String, Answered> answers = new LinkedHashMap<>();
    JsonNode stateNode = params.get("requestState");
    JsonNode responses = params.get("inputResponses");
    if (responses != null && !responses.isNull() && !responses.isObject()) {
      throw JsonRpcException.invalidParams("`inputResponses` must be an object");
    }
    if (stateNode != null && !stateNode.isNull()) {
      if (!stateNode.isString()) {
        throw JsonRpcException.invalidParams("`requestState` must be the string svc sent");
      }
      ObjectNode state =
          states
              .open(stateNode.asString())
              .orElseThrow(() ->
                  JsonRpcException.invalidParams(
                      "`requestState` was not issued by this server or was altered; call the tool"
                          + " again without it"));
      if (state.path("exp").asLong(0) < now.getEpochSecond()) {
        throw JsonRpcException.invalidParams(
            "`requestState` expired (it is valid for "
                + LIFETIME.toMinutes()
                + " minutes); call the tool again without it");
      }
      Binding bound = binding.get();
      if (!state.path("tool").asString("").equals(bound.tool())
          || !state.path("args").asString("").equals(bound.argumentsDigest())
          || !state.path("principal").asString("").equals(bound.principal())) {
        throw JsonRpcException.invalidParams(
            "`requestState` belongs to another call (its tool, arguments or caller differ); call"
                + " the tool again without it");
      }
      for (Map.Entry<String, JsonNode> answer : state.path("answers").properties()) {
        answers.put(
            answer.getKey(),
            new Answered(
                answer.getValue().path("method").asString(""), answer.getValue().path("result")));
      }
      for (Map.Entry<String, JsonNode> question : state.path("asked").properties()) {
        JsonNode response = responses == null ? null : responses.get(question.getKey());
        if (response == null || response.isNull()) {
          continue; // unanswered still: asked again this round
        }
        String method = question.getValue().asString("");
        if (ClientAnswers.check(method, response) instanceof ClientAnswers.Checked.Malformed bad) {
          throw JsonRpcException.invalidParams(
              "`inputResponses."
                  + question.getKey()
                  + "` is not a valid answer to "
                  + method
                  + ": "
                  + bad.why());
        }
        answers.put(question.getKey(), new Answered(method, response));
      }
    }
    return new InputRounds(states, binding, declared, now, answers);
  }

  /**
   * The binding of a call, computed once when first asked for: hashing the canonical arguments
   * costs more than the rest of a quick call, and only a call that asks or answers needs it.
   */
  private static Supplier<Binding> bindingOf(ObjectNode params, Principal principal) {
    return new Supplier<>() {
      private Binding computed;

      @Override
      public synchronized Binding get() {
        if (computed == null) {
          JsonNode arguments = params.get("arguments");
          computed =
              new Binding(
                  params.path("name").asString(""),
                  sha256(Json.canonical(arguments == null ? Json.NODES.objectNode() : arguments)),
                  principal.id());
        }
        return computed;
      }
    };
  }

  @Override
  public boolean declares(String capability) {
    return declared.declares(capability);
  }

  @Override
  public Answer ask(ClientRequest request) {
    return ask(request, Optional.empty());
  }

  /**
   * Asks under the caller's {@code key} when it gives one (a script's {@code mcp.elicit({key})}),
   * else under the next number ({@code input-1}, …).
   */
  @Override
  public synchronized Answer ask(ClientRequest request, Optional<String> named) {
    ++asked;
    if (named.isPresent() && !VALID_KEY.matcher(named.get()).matches()) {
      return failed(
          "the request key `"
              + named.get()
              + "` is not valid: use 1 to 64 letters, digits, `_`, `-` or `.`");
    }
    String key = named.orElse(KEY_PREFIX + asked);
    if (!declares(request.capability())) {
      missing.add(request.capability());
      return failed(
          "the request's _meta did not declare the `" + request.capability() + "` capability");
    }
    Answered answer = answers.get(key);
    if (answer == null) {
      unanswered.put(key, request);
      return new Answer.NextRound();
    }
    if (!answer.method().equals(request.method())) {
      return failed(
          "the answer "
              + key
              + " was to "
              + answer.method()
              + ", but the tool now asks "
              + request.method()
              + ": a tool must ask the same questions in the same order on every round");
    }
    return new Answer.Coming(CompletableFuture.completedFuture(answer.result().deepCopy()));
  }

  private static Answer failed(String why) {
    return new Answer.Coming(CompletableFuture.failedFuture(new ClientRequestException(why)));
  }

  /**
   * The response to a call that ended with {@code result}: the result, unless the call asked for a
   * capability the client did not declare.
   *
   * @throws JsonRpcException {@code -32021} with {@code data.requiredCapabilities} naming each
   *     capability the call needed
   */
  public synchronized JsonNode complete(JsonNode result) {
    failIfMissing();
    return result;
  }

  /**
   * The {@code input_required} result of a call that stopped for answers to come: its unanswered
   * questions and a state that carries every answer so far.
   *
   * @throws JsonRpcException {@code -32021} as {@link #complete} does
   * @throws IllegalStateException when the call asked nothing unanswered
   */
  public synchronized ObjectNode inputRequired() {
    failIfMissing();
    if (unanswered.isEmpty()) {
      throw new IllegalStateException("the call asked no question that waits for an answer");
    }
    ObjectNode result = Json.NODES.objectNode();
    result.put("resultType", "input_required");
    ObjectNode requests = result.putObject("inputRequests");
    ObjectNode state = Json.NODES.objectNode();
    state.put("v", 1);
    Binding bound = binding.get();
    state.put("tool", bound.tool());
    state.put("args", bound.argumentsDigest());
    state.put("principal", bound.principal());
    state.put("exp", now.plus(LIFETIME).getEpochSecond());
    ObjectNode keptAnswers = state.putObject("answers");
    answers.forEach((key, answer) -> {
      ObjectNode kept = keptAnswers.putObject(key);
      kept.put("method", answer.method());
      kept.set("result", answer.result());
    });
    ObjectNode askedNow = state.putObject("asked");
    unanswered.forEach((key, request) -> {
      ObjectNode wire = requests.putObject(key);
      wire.put("method", request.method());
      wire.set("params", request.params());
      askedNow.put(key, request.method());
    });
    result.put("requestState", states.seal(state));
    return result;
  }

  /** Whether the call asked a question that waits for the next round. */
  public synchronized boolean waitsForInput() {
    return !unanswered.isEmpty();
  }

  private void failIfMissing() {
    if (missing.isEmpty()) {
      return;
    }
    ObjectNode data = Json.NODES.objectNode();
    ObjectNode required = data.putObject("requiredCapabilities");
    missing.forEach(required::putObject);
    throw JsonRpcException.withCode(
        ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
        "the tool needs client capabilities the request did not declare: "
            + String.join(", ", missing)
            + " (declare them in _meta[\"io.modelcontextprotocol/clientCapabilities\"])",
        data);
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

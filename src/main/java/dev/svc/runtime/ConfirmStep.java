package dev.svc.runtime;

import dev.svc.call.Caller;
import dev.svc.call.ClientRequest;
import dev.svc.call.ClientRequestException;
import dev.svc.call.ClientRequests;
import dev.svc.call.ClientText;
import dev.svc.call.Deadline;
import dev.svc.call.InputRequiredException;
import dev.svc.json.Json;
import dev.svc.model.Confirmation;
import dev.svc.model.Tool;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code confirm} stage of the pipeline, after input validation and before anything of the tool
 * runs: the rendered question goes to the user as an elicitation ({@link ClientRequests}), and only
 * an {@code accept} lets the call go on. A client without the elicitation capability is not asked:
 * with {@code confirm_fallback: allow} the tool runs, else the call is refused.
 */
final class ConfirmStep {
  private static final Pattern PLACEHOLDER =
      Pattern.compile("\\{\\{\\s*inputs\\.([A-Za-z_][A-Za-z0-9_]*)\\s*}}");

  private ConfirmStep() {}

  /** The form of a confirmation: nothing to fill in, only accept, decline or cancel. */
  private static ObjectNode emptyForm() {
    ObjectNode schema = Json.NODES.objectNode();
    schema.put("type", "object");
    schema.putObject("properties");
    return schema;
  }

  /**
   * Asks, when the tool has a {@code confirm}; the failure message when the call must not go on.
   *
   * @throws InputRequiredException when the question goes out with an {@code input_required} result
   *     (2026-07-28) and the call ends for now
   */
  static Optional<String> check(Tool tool, JsonNode inputs, Caller caller, Deadline deadline) {
    if (tool.confirm().isEmpty()) {
      return Optional.empty();
    }
    Confirmation confirm = tool.confirm().get();
    ClientRequests client = caller.client();
    if (!client.declares("elicitation") && confirm.runWithoutAsking()) {
      return Optional.empty();
    }
    String message = render(confirm.message(), inputs);
    ClientRequests.Answer answer = client.ask(new ClientRequest.Elicitation(message, emptyForm()));
    CompletableFuture<JsonNode> coming =
        switch (answer) {
          case ClientRequests.Answer.NextRound next -> throw new InputRequiredException();
          case ClientRequests.Answer.Coming c -> c.result();
        };
    JsonNode result;
    try {
      result = coming.get(Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      String why =
          e.getCause() instanceof ClientRequestException refused
              ? refused.getMessage()
              : "asking the client failed";
      return Optional.of(
          "tool `"
              + tool.name()
              + "` must be confirmed by the user, but "
              + why
              + "; it did not run");
    } catch (TimeoutException e) {
      coming.cancel(true);
      return Optional.of(
          "the user did not answer the confirmation of tool `"
              + tool.name()
              + "` within its timeout ("
              + deadline.timeout().toSeconds()
              + " s); it did not run");
    } catch (CancellationException e) {
      return Optional.of("the confirmation of tool `" + tool.name() + "` was cancelled");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      coming.cancel(true);
      return Optional.of("the call was cancelled");
    }
    return switch (result.path("action").asString("")) {
      case "accept" -> Optional.empty();
      case "decline" ->
          Optional.of(
              "the user declined to run tool `"
                  + tool.name()
                  + "` (asked: "
                  + message
                  + "); it did not run");
      case "cancel" ->
          Optional.of(
              "the user cancelled the confirmation of tool `"
                  + tool.name()
                  + "` (asked: "
                  + message
                  + "); it did not run");
      default ->
          Optional.of(
              "the client's answer to the confirmation of tool `"
                  + tool.name()
                  + "` has no `action` accept, decline or cancel; it did not run");
    };
  }

  /**
   * The message with each {@code {{ inputs.x }}} replaced by the input's value (empty if none),
   * each value shown up to {@value ClientText#SHOWN} characters and then its length: a question for
   * a person, who cannot read megabytes in a dialog.
   */
  static String render(String template, JsonNode inputs) {
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      JsonNode value = inputs.get(m.group(1));
      String text =
          value == null || value.isNull()
              ? ""
              : value.isString() ? value.asString() : Json.MAPPER.writeValueAsString(value);
      m.appendReplacement(out, Matcher.quoteReplacement(ClientText.shown(text)));
    }
    m.appendTail(out);
    return out.toString();
  }
}

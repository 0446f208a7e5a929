package dev.svc.protocol.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

class DispatcherTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Dispatcher<String> dispatcher =
      new Dispatcher<>(
          Map.of(
              "echo",
              MethodHandler.<String>result((caller, params) ->
                  NODES.objectNode().put("caller", caller).set("params", params)),
              "count",
              (caller, params) ->
                  new MethodReply.Stream(results -> {
                    for (int i = 1; i <= params.path("to").asInt(); i++) {
                      results.send(IntNode.valueOf(i));
                    }
                  })));

  private static JsonRpcMessage.Request request(String method, ObjectNode params) {
    return new JsonRpcMessage.Request(StringNode.valueOf("r1"), method, params);
  }

  @Test
  void aMethodWithOneResultAnswersWithIt() {
    MethodReply reply =
        dispatcher.dispatch("alice", request("echo", NODES.objectNode().put("a", 1)));
    assertThat(reply).isInstanceOf(MethodReply.Result.class);
    assertThat(((MethodReply.Result) reply).result().toString())
        .isEqualTo("{\"caller\":\"alice\",\"params\":{\"a\":1}}");
  }

  @Test
  void aStreamingMethodWritesItsResultsOnlyWhenTheStreamRuns() {
    MethodReply reply =
        dispatcher.dispatch("bob", request("count", NODES.objectNode().put("to", 3)));
    List<JsonNode> sent = new ArrayList<>();
    ((MethodReply.Stream) reply)
        .writer()
        .accept(
            new ResultStream() {
              @Override
              public boolean send(JsonNode result) {
                return sent.add(result);
              }

              @Override
              public boolean keepAlive() {
                return true;
              }

              @Override
              public boolean isOpen() {
                return true;
              }
            });
    assertThat(sent).extracting(JsonNode::asInt).containsExactly(1, 2, 3);
  }

  @Test
  void anUnknownMethodIsMethodNotFound() {
    assertThatThrownBy(() -> dispatcher.dispatch("carol", request("nope", NODES.objectNode())))
        .isInstanceOfSatisfying(
            JsonRpcException.class,
            e -> {
              assertThat(e.error().code()).isEqualTo(ErrorCodes.METHOD_NOT_FOUND);
              assertThat(e.error().message()).isEqualTo("Method not found: nope");
            });
  }
}

package dev.svc.protocol.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.runtime.ServerFault;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.IntNode;

class JsonRpcErrorTest {
  @Test
  void aServerFaultIsAnInternalErrorNamingItsRequestIdInTheMessageAndTheData() {
    JsonRpcError error =
        JsonRpcError.internal(new ServerFault("server shutting down", "3f9c0a1b2c4d"));
    assertThat(error.code()).isEqualTo(-32603);
    assertThat(error.message()).isEqualTo("server shutting down (request id 3f9c0a1b2c4d)");
    assertThat(JsonRpcCodec.error(Optional.of(IntNode.valueOf(7)), error).toString())
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32603,"
                + "\"message\":\"server shutting down (request id 3f9c0a1b2c4d)\","
                + "\"data\":{\"requestId\":\"3f9c0a1b2c4d\"}}}");
  }
}

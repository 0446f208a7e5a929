package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.protocol.jsonrpc.JsonRpcError;
import dev.svc.runtime.ServerFault;
import org.junit.jupiter.api.Test;

class A2aErrorsTest {
  @Test
  void aServerFaultCarriesItsRequestIdAsTheOneErrorDetail() {
    JsonRpcError error = A2aErrors.internal(new ServerFault("internal error", "abc")).error();
    assertThat(error.code()).isEqualTo(-32603);
    assertThat(error.message()).isEqualTo("internal error (request id abc)");
    assertThat(error.data().orElseThrow().toString()).isEqualTo("[{\"requestId\":\"abc\"}]");
  }

  @Test
  void protocolErrorsCarryAnErrorInfoNamingTheirReason() {
    JsonRpcError error = A2aErrors.taskNotFound("t-1").error();
    assertThat(error.code()).isEqualTo(-32001);
    assertThat(error.data().orElseThrow().toString())
        .isEqualTo(
            "[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\","
                + "\"domain\":\"a2a-protocol.org\"}]");
  }
}

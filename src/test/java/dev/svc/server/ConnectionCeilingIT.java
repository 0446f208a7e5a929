package dev.svc.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.protocol.HttpReply;
import dev.svc.testing.RawHttp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * At the cap on all connections, the server stops accepting: connections open go on being served, a
 * new one waits in the kernel's queue and is served as soon as another closes.
 */
@Timeout(60)
class ConnectionCeilingIT {
  static final String HEARTBEAT = "GET /heartbeat HTTP/1.1\r\nHost: localhost\r\n\r\n";

  @Test
  void aConnectionPastTheCapWaitsUntilOneClosesWhileOpenOnesAreServed() throws Exception {
    ServerSettings settings =
        new ServerSettings(
            "127.0.0.1",
            0,
            List.of(),
            List.of(),
            1024 * 1024,
            ServerSettings.Metrics.MAIN_PORT,
            new ServerSettings.Limits(
                Duration.ofSeconds(10),
                Duration.ofSeconds(60),
                0,
                Duration.ofSeconds(1),
                OptionalInt.of(4)));
    HttpServer http =
        HttpServer.start(
            settings,
            call -> new HttpReply.Empty(404, Map.of()),
            call -> new HttpReply.Empty(404, Map.of()));
    http.markReady();
    List<RawHttp> held = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        RawHttp open = RawHttp.connect(http.port());
        held.add(open);
        assertThat(open.send(HEARTBEAT).read().status()).isEqualTo(200);
      }
      // the fifth connects (the kernel queues it) but is not served while four are open
      CompletableFuture<Integer> fifth =
          CompletableFuture.supplyAsync(() -> {
            try (RawHttp late = RawHttp.connect(http.port())) {
              return late.send(HEARTBEAT).read().status();
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
      assertThat(waits(fifth, Duration.ofMillis(700))).isTrue();
      assertThat(held.getFirst().send(HEARTBEAT).read().status())
          .as("a connection already open is served")
          .isEqualTo(200);

      held.removeLast().close();

      assertThat(fifth.get(10, TimeUnit.SECONDS)).isEqualTo(200);
    } finally {
      held.forEach(RawHttp::close);
      http.stop(Duration.ofSeconds(1));
    }
  }

  private static boolean waits(CompletableFuture<Integer> answer, Duration within)
      throws Exception {
    try {
      answer.get(within.toMillis(), TimeUnit.MILLISECONDS);
      return false;
    } catch (TimeoutException e) {
      return true;
    }
  }

  @Test
  void theCapIsThreeQuartersOfTheDescriptorsLeftAndNeverBelow64() {
    assertThat(ConnectionCeiling.of(20_000 - 100)).isEqualTo(14_925);
    assertThat(ConnectionCeiling.of(300)).isEqualTo(225);
    assertThat(ConnectionCeiling.of(50)).isEqualTo(64);
    assertThat(ConnectionCeiling.forThisProcess()).isPresent();
  }
}

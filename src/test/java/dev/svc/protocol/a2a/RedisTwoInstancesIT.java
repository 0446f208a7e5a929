package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.testing.A2aFixture;
import dev.svc.testing.OpenAiReplies;
import dev.svc.testing.TcpProxy;
import dev.svc.testing.TestRedis;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Two instances sharing tasks through Redis. The stores use their production keys ({@code
 * svc:a2a:…}), so this class has database {@value #DATABASE} to itself and empties those keys.
 */
class RedisTwoInstancesIT extends TwoInstancesContract {
  static final int DATABASE = 13;
  @RegisterExtension static final TestRedis redis = new TestRedis();

  @Override
  String storeUrl() {
    return redis.connectionString(DATABASE);
  }

  @Override
  String connector() {
    return "redis";
  }

  @TempDir Path third;

  @Test
  void aStoreThatStopsAnsweringHoldsAStreamedAnswerOnceNotAtEveryChunk() throws Exception {
    // before: each of the answer's chunks waited for the store's 5 s time-out (20 chunks: 100 s);
    // now the first failure pauses the sharing of events, and the answer streams on
    List<String> replies = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      replies.add(OpenAiReplies.delta("w" + i + " "));
    }
    replies.add(OpenAiReplies.done());
    CountDownLatch gate = model.gated(replies.toArray(String[]::new));
    try (TcpProxy store = TcpProxy.to("127.0.0.1", redis.port());
        A2aFixture c =
            A2aFixture.launch(
                third,
                project(connector()),
                model.url(),
                Map.of("STATE_URL", "redis://127.0.0.1:" + store.port() + "/" + DATABASE),
                A2aServerIT.settings())) {
      A2aFixture.LiveStream started =
          c.open("chat", "SendStreamingMessage", A2aServerIT.userMessage("words?"));
      started.next();
      assertThat(model.awaitEndlessStarted()).isTrue();

      store.freeze(); // the store stops answering: nothing closes, nothing comes back
      long begun = System.nanoTime();
      gate.countDown();
      List<JsonNode> events = started.rest().events();
      Duration took = Duration.ofNanos(System.nanoTime() - begun);

      assertThat(events.toString()).contains("w0 ").contains("w19 ");
      assertThat(took).as("the answer's 20 chunks").isLessThan(Duration.ofSeconds(40));
    }
  }

  @BeforeEach
  @AfterEach
  void removeTaskKeys() {
    redis.run(
        DATABASE,
        "EVAL",
        "for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end",
        "0",
        RedisTaskStore.PREFIX + "*");
  }
}

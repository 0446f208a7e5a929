package dev.svc.protocol.a2a;

import static dev.svc.testing.FakeRedisServer.ascii;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.testing.FakeRedisServer;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The shared Redis task store against a Redis (or a man in the middle) answering what no Redis
 * sends: a read fails with the store's outage error ({@link TaskStoreException}, {@code -32603} at
 * the protocol's edge), a subscription's oversized message drops the subscription, which connects
 * again; never an error of the JVM (the launcher ends the process on an {@code OutOfMemoryError}).
 */
class HostileTaskStoreRedisIT {
  private static final TaskStore.Scope WEATHER_ALICE = TaskStoreContract.WEATHER_ALICE;

  /**
   * Answers the store's start (its layout version) like Redis, and any script with {@code eval}.
   */
  private static Optional<byte[]> store(List<String> command, byte[] eval, byte[] message) {
    return Optional.of(
        switch (command.getFirst()) {
          case "PING", "SET" -> ascii("+OK\r\n");
          case "GET" -> ascii("$1\r\n1\r\n");
          case "EVAL", "EVALSHA" -> eval;
          case "SUBSCRIBE" -> subscribed(command.get(1), message);
          default -> ascii(":0\r\n");
        });
  }

  private static byte[] subscribed(String channel, byte[] message) {
    String confirm =
        "*3\r\n$9\r\nsubscribe\r\n$" + channel.length() + "\r\n" + channel + "\r\n:1\r\n";
    String header = "*3\r\n$7\r\nmessage\r\n$" + channel.length() + "\r\n" + channel + "\r\n";
    byte[] start = ascii(confirm + header);
    byte[] all = new byte[start.length + message.length];
    System.arraycopy(start, 0, all, 0, start.length);
    System.arraycopy(message, 0, all, start.length, message.length);
    return all;
  }

  private static byte[] bulk(int length) {
    return ascii("$" + length + "\r\n" + "a".repeat(length) + "\r\n");
  }

  @Test
  void aReadAnsweredWithEndlessNestingIsTheStoresOutageError() throws IOException {
    byte[] deep = ascii("*1\r\n".repeat(250_000) + ":1\r\n");
    try (FakeRedisServer server = new FakeRedisServer(command -> store(command, deep, bulk(10)));
        RedisTaskStore tasks =
            new RedisTaskStore(server.adapter(), SharedTasks.Settings.DEFAULTS)) {
      assertThatThrownBy(() -> tasks.find(WEATHER_ALICE, "t1"))
          .isInstanceOf(TaskStoreException.class)
          .hasMessageContaining("could not read task t1")
          .hasMessageContaining("not valid RESP")
          .hasMessageContaining("nested deeper than 128 levels")
          .hasMessageNotContaining("Exception");
    }
  }

  @Test
  void aReadAnnouncingTwoGibibytesIsTheStoresOutageErrorBeforeAnyArrayIsMade() throws IOException {
    try (FakeRedisServer server =
            new FakeRedisServer(command -> store(command, ascii("$2147483647\r\n"), bulk(10)));
        RedisTaskStore tasks =
            new RedisTaskStore(server.adapter(), SharedTasks.Settings.DEFAULTS)) {
      assertThatThrownBy(() -> tasks.find(WEATHER_ALICE, "t1"))
          .isInstanceOf(TaskStoreException.class)
          .hasMessageContaining("could not read task t1")
          .hasMessageEndingWith(": the reply passed " + RedisTaskStore.MAX_REPLY_BYTES + " bytes");
    }
  }

  @Test
  void aSubscriptionMessageOfAMegabyteDropsTheSubscriptionWhichConnectsAgain()
      throws IOException, InterruptedException {
    try (FakeRedisServer server =
            new FakeRedisServer(command -> store(command, ascii(":0\r\n"), bulk(1024 * 1024)));
        RedisTaskStore tasks =
            new RedisTaskStore(server.adapter(), SharedTasks.Settings.DEFAULTS)) {
      // before, the message was read whole and handed on, and the one subscription stayed
      for (int i = 0; i < 600 && server.received("SUBSCRIBE") < 2; i++) {
        Thread.sleep(50);
      }
      assertThat(server.received("SUBSCRIBE")).isGreaterThanOrEqualTo(2);
      assertThat(tasks.toString()).contains("redis adapter `db`");
    }
  }
}

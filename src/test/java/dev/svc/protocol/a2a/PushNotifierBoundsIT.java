package dev.svc.protocol.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.log.Level;
import dev.svc.model.Service;
import dev.svc.telemetry.SvcMetrics;
import dev.svc.testing.CapturedLog;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Webhooks that accept a connection and never answer: deliveries in flight stay within their bound,
 * and notifications past the pending bound are dropped and counted, not queued without end.
 */
@Timeout(60)
class PushNotifierBoundsIT {
  /** Accepts every connection and never answers; counts them. */
  static final class SilentReceiver implements AutoCloseable {
    final ServerSocket server = new ServerSocket(0, 100, InetAddress.ofLiteral("127.0.0.1"));
    final List<Socket> accepted = new CopyOnWriteArrayList<>();
    final List<Long> acceptedAt = new CopyOnWriteArrayList<>();
    final AtomicInteger open = new AtomicInteger();

    SilentReceiver() throws IOException {
      Thread.ofVirtual()
          .start(() -> {
            while (!server.isClosed()) {
              try {
                Socket socket = server.accept();
                acceptedAt.add(System.nanoTime());
                accepted.add(socket);
                open.incrementAndGet();
                Thread.ofVirtual()
                    .start(() -> {
                      try (socket) {
                        byte[] buffer = new byte[64 * 1024];
                        while (socket.getInputStream().read(buffer) >= 0) {
                          // read what is sent (a byte at a time took seconds a MiB), answer nothing
                        }
                      } catch (IOException e) {
                        // the client gave up
                      } finally {
                        open.decrementAndGet();
                      }
                    });
              } catch (IOException e) {
                return;
              }
            }
          });
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }

  static Task task() {
    return new Task(
        "task-1",
        "ctx-1",
        TaskStatus.of(TaskState.WORKING, Instant.now()),
        List.of(),
        List.of(),
        Optional.empty());
  }

  @Test
  void silentWebhooksHoldAtMostTheSendingBoundAndTheRestPastThePendingBoundIsDropped()
      throws Exception {
    try (SilentReceiver receiver = new SilentReceiver();
        PushNotifier notifier =
            new PushNotifier(
                new PushNotifier.Retry(
                    1, Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofMillis(1500)),
                new PushDestinations(
                    () -> new Service.PushNotifications(true, List.of()),
                    host -> List.of(InetAddress.ofLiteral("127.0.0.1"))),
                new PushNotifier.Bounds(2, 5, 1L << 30));
        CapturedLog log = CapturedLog.at(Level.INFO)) {
      List<PushConfig> configs =
          java.util.stream.IntStream.range(0, 10)
              .mapToObj(i ->
                  new PushConfig(
                      "cfg-" + i,
                      "task-1",
                      "http://hooks.test:" + receiver.server.getLocalPort() + "/hook",
                      Optional.empty(),
                      Optional.empty()))
              .toList();
      long droppedBefore = SvcMetrics.PUSH_DROPPED.value();

      notifier.notify(configs, task());

      assertThat(SvcMetrics.PUSH_DROPPED.value() - droppedBefore)
          .as("five past the pending bound")
          .isEqualTo(5);
      long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (receiver.accepted.size() < 5 && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertThat(receiver.accepted).as("each pending notification tried once").hasSize(5);
      // never more than two in flight: a third attempt starts only once one of the two before it
      // gave up after its 1.5 s (the receiver's own count of open connections lags the closes it
      // has not read yet on a busy machine, so the starts are what is measured)
      List<Long> starts = receiver.acceptedAt.stream().sorted().toList();
      for (int i = 0; i + 2 < starts.size(); i++) {
        assertThat(Duration.ofNanos(starts.get(i + 2) - starts.get(i)))
            .as("attempts %d and %d", i + 1, i + 3)
            .isGreaterThan(Duration.ofMillis(1000));
      }
      assertThat(Duration.ofNanos(starts.get(1) - starts.get(0)))
          .as("the first two at once")
          .isLessThan(Duration.ofMillis(1000));
      long undelivered = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (receiver.open.get() > 0 && System.nanoTime() < undelivered) {
        Thread.sleep(20);
      }
      Thread.sleep(200);
      String lines = log.text();
      assertThat(lines.lines().filter(l -> l.contains("push notification not delivered")))
          .as("five failures in a minute, one line at warn")
          .hasSize(1);
      assertThat(lines.lines().filter(l -> l.contains("push notifications dropped"))).hasSize(1);
    }
  }

  /** A task whose history holds one message of {@code mib} MiB of text. */
  static Task large(String id, int mib) {
    return new Task(
        id,
        "ctx-1",
        TaskStatus.of(TaskState.WORKING, Instant.now()),
        List.of(),
        List.of(Message.agent("x".repeat(mib << 20), "ctx-1", id)),
        Optional.empty());
  }

  static List<PushConfig> configs(SilentReceiver receiver, String taskId, int count) {
    return java.util.stream.IntStream.range(0, count)
        .mapToObj(i ->
            new PushConfig(
                "cfg-" + i,
                taskId,
                "http://hooks.test:" + receiver.server.getLocalPort() + "/hook",
                Optional.empty(),
                Optional.empty()))
        .toList();
  }

  @Test
  void theTasksOfWaitingNotificationsHoldAtMostTheByteBoundAndTheirBytesComeBack()
      throws Exception {
    // forty 4 MiB tasks to a webhook that never answers held 640 MiB: the count bound (10,000)
    // was the only one, and a client's tasks left the store while their notifications waited
    try (SilentReceiver receiver = new SilentReceiver();
        PushNotifier notifier =
            new PushNotifier(
                new PushNotifier.Retry(
                    1, Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofMillis(4000)),
                new PushDestinations(
                    () -> new Service.PushNotifications(true, List.of()),
                    host -> List.of(InetAddress.ofLiteral("127.0.0.1"))),
                new PushNotifier.Bounds(2, 10_000, 10L << 20))) {
      // made first: none of the first three may give up (after 4 s) before the tenth is queued
      List<Task> tasks =
          java.util.stream.IntStream.range(0, 10).mapToObj(i -> large("task-" + i, 3)).toList();
      long droppedBefore = SvcMetrics.PUSH_DROPPED.value();

      for (Task task : tasks) {
        notifier.notify(configs(receiver, task.id(), 2), task);
      }

      assertThat(SvcMetrics.PUSH_DROPPED.value() - droppedBefore)
          .as("three tasks of 3 MiB fit in 10 MiB, each sent to both configs; the others dropped")
          .isEqualTo(14);
      long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (receiver.accepted.size() < 6 && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertThat(receiver.accepted).hasSize(6);

      // once those gave up, their bytes are free again; and a task larger than the whole bound
      // is still sent when nothing else waits
      long free = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      boolean queued = false;
      while (!queued && System.nanoTime() < free) {
        Thread.sleep(200);
        long dropped = SvcMetrics.PUSH_DROPPED.value();
        notifier.notify(configs(receiver, "task-big", 1), large("task-big", 12));
        queued = SvcMetrics.PUSH_DROPPED.value() == dropped;
      }
      assertThat(queued).as("the 12 MiB task queued once the others were done").isTrue();
      long sent = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (receiver.accepted.size() < 7 && System.nanoTime() < sent) {
        Thread.sleep(20);
      }
      assertThat(receiver.accepted).hasSize(7);
    }
  }
}

package dev.svc.protocol.a2a;

import dev.svc.call.ByteBudget;
import dev.svc.json.Json;
import dev.svc.log.Log;
import dev.svc.log.OncePer;
import dev.svc.net.AddressPolicy;
import dev.svc.telemetry.SvcMetrics;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLSocketFactory;

/**
 * Delivers push notifications: on every status change of a task, a POST of the task (as the v1
 * {@code StreamResponse} {@code {"task": …}}) to each of its configs' URLs, with the config's token
 * in {@code X-A2A-Notification-Token} and its authentication in {@code Authorization}.
 *
 * <p>Never blocks the task: deliveries run on their own virtual threads, in order per config. Each
 * attempt resolves the URL's host again and checks every address ({@link PushDestinations}); a
 * refused one ends the delivery. A failed delivery (connection error, time-out, HTTP 429 or 5xx) is
 * retried with exponential backoff; other answers, redirects included, are final. Gives up after
 * {@link Retry#attempts()} tries and logs it.
 *
 * <p>Bounded, so that webhooks which never answer cannot fill the process with connections or its
 * heap with tasks: at most {@link Bounds#sending} attempts are in flight at once (the rest wait
 * their turn, a backoff holds none), at most {@link Bounds#pending} notifications wait or retry,
 * and the tasks they carry (as JSON) hold at most {@link Bounds#bytes}; past either a new one is
 * dropped, counted in {@code svc_a2a_push_dropped_total} and logged once a minute.
 */
public final class PushNotifier implements AutoCloseable {
  private static final Log LOG = Log.tagged("a2a:push");
  public static final String TOKEN_HEADER = "X-A2A-Notification-Token";

  /** How long one connection attempt may take (the receiver's answer has {@link Retry#timeout}). */
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /**
   * How deliveries are retried: first wait, doubled each time up to {@code maxBackoff}.
   *
   * @param timeout how long one attempt may take once connected: TLS, sending, the status line
   */
  public record Retry(int attempts, Duration firstBackoff, Duration maxBackoff, Duration timeout) {
    public static final Retry DEFAULT =
        new Retry(5, Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(10));
  }

  /**
   * @param sending delivery attempts in flight at once, each with its connection
   * @param pending notifications waiting, being sent or between retries, at most
   * @param bytes the JSON of the tasks those notifications carry, at most (one notification is let
   *     through whatever its size when none else waits): each holds the whole task, and a client
   *     can send 4 MiB messages in a loop to a webhook that never answers, after its tasks have
   *     left the store; forty such held 640 MiB before this bound
   */
  record Bounds(int sending, int pending, long bytes) {
    static final Bounds DEFAULT = new Bounds(64, 10_000, defaultBytes());

    /** An eighth of the heap, at least 16 MiB: 64 MiB with the launchers' 512 MiB heap. */
    static long defaultBytes() {
      return Math.max(16L * 1024 * 1024, Runtime.getRuntime().maxMemory() / 8);
    }
  }

  private final Retry retry;
  private final PushDestinations destinations;
  private final Bounds bounds;
  private final Semaphore sending;
  private final AtomicInteger pending = new AtomicInteger();

  /** The bytes of the task JSON held by notifications waiting, being sent or between retries. */
  private final ByteBudget pendingBytes;

  private final AtomicLong droppedSinceLog = new AtomicLong();
  private final OncePer dropWarning = new OncePer(Duration.ofMinutes(1));
  private final AtomicLong undeliveredSinceLog = new AtomicLong();
  private final OncePer undeliveredWarning = new OncePer(Duration.ofMinutes(1));
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<String, CompletableFuture<Void>> chains = new ConcurrentHashMap<>();

  PushNotifier(Retry retry, PushDestinations destinations) {
    this(retry, destinations, Bounds.DEFAULT);
  }

  PushNotifier(Retry retry, PushDestinations destinations, Bounds bounds) {
    this.retry = retry;
    this.destinations = destinations;
    this.bounds = bounds;
    this.pendingBytes = new ByteBudget(bounds.bytes());
    this.sending = new Semaphore(bounds.sending(), true);
  }

  /** Queues one notification of {@code task} to every config; returns at once, never throws. */
  public void notify(List<PushConfig> configs, Task task) {
    if (configs.isEmpty() || executor.isShutdown()) {
      return;
    }
    try {
      byte[] body = Json.MAPPER.writeValueAsBytes(new StreamResponse.TaskEvent(task).toJson());
      if (!pendingBytes.takeOrAlone(body.length)) {
        for (int i = 0; i < configs.size(); i++) {
          dropped(task.id(), "the tasks of those waiting or retrying hold " + mib(bounds.bytes()));
        }
        return;
      }
      // one body for every config of this notification: its bytes are given back with the last
      AtomicInteger holding = new AtomicInteger(configs.size());
      Runnable delivered =
          () -> {
            if (holding.decrementAndGet() == 0) {
              pendingBytes.give(body.length);
            }
          };
      String taskId = task.id();
      TaskState state = task.status().state();
      for (PushConfig config : configs) {
        if (pending.incrementAndGet() > bounds.pending()) {
          pending.decrementAndGet();
          dropped(taskId, bounds.pending() + " wait or retry already");
          delivered.run();
          continue;
        }
        String key = task.id() + "/" + config.id();
        CompletableFuture<Void> next;
        synchronized (chains) {
          CompletableFuture<Void> before =
              chains.getOrDefault(key, CompletableFuture.completedFuture(null));
          next =
              before.handleAsync(
                  (ignored, error) -> {
                    // the task's id and state, not the task: the body is all that is sent
                    deliver(config, body, taskId, state);
                    return null;
                  },
                  executor);
          chains.put(key, next);
        }
        CompletableFuture<Void> queued = next;
        queued.whenComplete((ignored, error) -> {
          pending.decrementAndGet();
          delivered.run();
          chains.remove(key, queued);
        });
      }
    } catch (RuntimeException e) {
      LOG.warn("push notification not queued", "task", task.id(), "error", String.valueOf(e));
    }
  }

  private static String mib(long bytes) {
    return bytes / (1024 * 1024) + " MiB";
  }

  private void deliver(PushConfig config, byte[] body, String taskId, TaskState state) {
    URI uri = URI.create(config.url());
    List<Map.Entry<String, String>> headers = new ArrayList<>(2);
    config.token().ifPresent(token -> headers.add(Map.entry(TOKEN_HEADER, token)));
    config
        .authentication()
        .filter(a -> !a.credentials().isEmpty())
        .ifPresent(
            a -> headers.add(Map.entry("Authorization", a.scheme() + " " + a.credentials())));
    Duration connect = min(CONNECT_TIMEOUT, retry.timeout());
    Duration backoff = retry.firstBackoff();
    String outcome = "";
    attempts:
    for (int attempt = 1; attempt <= retry.attempts(); attempt++) {
      try {
        switch (destinations.resolve(uri)) {
          case AddressPolicy.Resolution.Refused refused -> {
            LOG.warn(
                "push notification refused",
                "task",
                taskId,
                "url",
                hostOf(uri),
                "reason",
                refused.reason());
            return; // the address will not become allowed by trying again
          }
          case AddressPolicy.Resolution.Unresolved unresolved -> outcome = unresolved.reason();
          case AddressPolicy.Resolution.Allowed allowed -> {
            int status;
            sending.acquire();
            try {
              status =
                  PushPost.post(
                      uri, allowed.addresses(), headers, body, connect, retry.timeout(), tls());
            } finally {
              sending.release();
            }
            if (status / 100 == 2) {
              return;
            }
            outcome = "HTTP " + status + (status / 100 == 3 ? " (redirects are not followed)" : "");
            if (status != 429 && status < 500) {
              break attempts; // the receiver refuses it; trying again will not help
            }
          }
        }
      } catch (IOException | RuntimeException e) {
        outcome = e.getClass().getSimpleName() + ": " + e.getMessage();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // shutting down
      }
      if (attempt < retry.attempts()) {
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return; // shutting down
        }
        backoff = min(backoff.multipliedBy(2), retry.maxBackoff());
      }
    }
    // at warn once a minute (with how many more failed since), each one at debug: webhooks that
    // never answer would otherwise write a line per notification
    long before = undeliveredSinceLog.getAndIncrement();
    if (undeliveredWarning.due()) {
      undeliveredSinceLog.addAndGet(-(before + 1));
      LOG.warn(
          "push notification not delivered",
          "task",
          taskId,
          "state",
          state.wireName(),
          "url",
          hostOf(uri),
          "error",
          outcome,
          "others_since_last_line",
          before);
    } else {
      LOG.debug(
          "push notification not delivered", "task", taskId, "url", hostOf(uri), "error", outcome);
    }
  }

  /**
   * Counts a notification dropped for want of room, and says so at most once a minute.
   *
   * @param why which bound it met
   */
  private void dropped(String taskId, String why) {
    SvcMetrics.PUSH_DROPPED.increment();
    droppedSinceLog.incrementAndGet();
    if (dropWarning.due()) {
      LOG.warn(
          "push notifications dropped: " + why + " (webhooks that answer slowly or not at all)",
          "dropped",
          droppedSinceLog.getAndSet(0),
          "task",
          taskId);
    }
  }

  /** The JDK's default TLS set-up (trust store, protocols), made on the first https delivery. */
  private static SSLSocketFactory tls() {
    return (SSLSocketFactory) SSLSocketFactory.getDefault();
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static String hostOf(URI uri) {
    return uri.getScheme()
        + "://"
        + uri.getHost()
        + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
  }

  /** Stops delivering; notifications still queued or retrying are dropped. */
  @Override
  public void close() {
    executor.shutdownNow();
  }

  /**
   * Goes on delivering the notifications already queued, for at most {@code grace}, then stops
   * (what is left is dropped and logged): a stopping instance's last notifications are the final
   * states of its tasks, which a receiver waits for. A retry's backoff counts against the grace.
   */
  public void close(Duration grace) {
    long end = System.nanoTime() + grace.toNanos();
    while (pending.get() > 0 && System.nanoTime() - end < 0) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    int left = pending.get();
    if (left > 0) {
      LOG.warn("stopping: push notifications not delivered", "notifications", left);
    }
    close();
  }
}

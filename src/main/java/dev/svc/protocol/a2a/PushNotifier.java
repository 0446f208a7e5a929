package dev.svc.protocol.a2a;

import dev.svc.log.Log;
import dev.svc.runtime.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Delivers push notifications: on every status change of a task, a POST of the task (as the v1
 * {@code StreamResponse} {@code {"task": …}}) to each of its configs' URLs, with the config's token
 * in {@code X-A2A-Notification-Token} and its authentication in {@code Authorization}.
 *
 * <p>Never blocks the task: deliveries run on their own virtual threads, in order per config. A
 * failed delivery (connection error, time-out, HTTP 429 or 5xx) is retried with exponential
 * backoff; other answers are final. Gives up after {@link Retry#attempts()} tries and logs it.
 */
public final class PushNotifier implements AutoCloseable {
  private static final Log LOG = Log.tagged("a2a:push");
  public static final String TOKEN_HEADER = "X-A2A-Notification-Token";

  /** How deliveries are retried: first wait, doubled each time up to {@code maxBackoff}. */
  public record Retry(int attempts, Duration firstBackoff, Duration maxBackoff, Duration timeout) {
    public static final Retry DEFAULT =
        new Retry(5, Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(10));
  }

  private final Retry retry;
  private volatile HttpClient client; // made on the first delivery (TLS set-up costs start-up)
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final Map<String, CompletableFuture<Void>> chains = new ConcurrentHashMap<>();

  public PushNotifier(Retry retry) {
    this.retry = retry;
    this.client = null;
  }

  private HttpClient client() {
    HttpClient current = client;
    if (current == null) {
      synchronized (this) {
        current = client;
        if (current == null) {
          current = HttpClient.newBuilder().connectTimeout(retry.timeout()).build();
          client = current;
        }
      }
    }
    return current;
  }

  /** Queues one notification of {@code task} to every config; returns at once, never throws. */
  public void notify(List<PushConfig> configs, Task task) {
    if (configs.isEmpty() || executor.isShutdown()) {
      return;
    }
    try {
      byte[] body = Json.MAPPER.writeValueAsBytes(new StreamResponse.TaskEvent(task).toJson());
      for (PushConfig config : configs) {
        String key = task.id() + "/" + config.id();
        CompletableFuture<Void> next;
        synchronized (chains) {
          CompletableFuture<Void> before =
              chains.getOrDefault(key, CompletableFuture.completedFuture(null));
          next =
              before.handleAsync(
                  (ignored, error) -> {
                    deliver(config, body, task);
                    return null;
                  },
                  executor);
          chains.put(key, next);
        }
        CompletableFuture<Void> queued = next;
        queued.whenComplete((ignored, error) -> chains.remove(key, queued));
      }
    } catch (RuntimeException e) {
      LOG.warn("push notification not queued", "task", task.id(), "error", String.valueOf(e));
    }
  }

  private void deliver(PushConfig config, byte[] body, Task task) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(config.url()))
            .timeout(retry.timeout())
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    config.token().ifPresent(token -> builder.header(TOKEN_HEADER, token));
    config
        .authentication()
        .filter(a -> !a.credentials().isEmpty())
        .ifPresent(a -> builder.header("Authorization", a.scheme() + " " + a.credentials()));
    HttpRequest request = builder.build();
    Duration backoff = retry.firstBackoff();
    String outcome = "";
    for (int attempt = 1; attempt <= retry.attempts(); attempt++) {
      try {
        int status = client().send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        if (status / 100 == 2) {
          return;
        }
        outcome = "HTTP " + status;
        if (status != 429 && status < 500) {
          break; // the receiver refuses it; trying again will not help
        }
      } catch (IOException e) {
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
          return;
        }
        backoff = min(backoff.multipliedBy(2), retry.maxBackoff());
      }
    }
    LOG.warn(
        "push notification not delivered",
        "task",
        task.id(),
        "state",
        task.status().state().wireName(),
        "url",
        hostOf(config.url()),
        "error",
        outcome);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static String hostOf(String url) {
    URI uri = URI.create(url);
    return uri.getScheme() + "://" + uri.getAuthority();
  }

  /** Stops delivering; notifications still queued or retrying are dropped. */
  @Override
  public void close() {
    executor.shutdownNow();
  }
}

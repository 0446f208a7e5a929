package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.call.Deadline;
import dev.svc.connector.Connector;
import dev.svc.connector.ConnectorUnavailableException;
import dev.svc.connector.PoolUsage;
import dev.svc.connector.StatementOptions;
import dev.svc.model.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What {@code /ready} learns about the adapters, and how rarely it asks the databases. */
class AdapterReadinessTest {
  private final AtomicLong now = new AtomicLong();

  /** A connector whose check fails while {@code down} is set, counting its checks. */
  private static final class Checked implements Connector {
    final AtomicBoolean down = new AtomicBoolean();
    final AtomicInteger checks = new AtomicInteger();
    volatile Optional<PoolUsage> pool = Optional.empty();

    @Override
    public void check(Deadline deadline) {
      checks.incrementAndGet();
      if (down.get()) {
        throw new ConnectorUnavailableException(
            "cannot connect to postgres adapter `shop` at db:5432: connection refused");
      }
    }

    @Override
    public JsonNode execute(
        Statement statement,
        Map<String, Object> values,
        Deadline deadline,
        StatementOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<PoolUsage> pool() {
      return pool;
    }

    @Override
    public void close() {}
  }

  private AdapterReadiness readiness(Connector connector) {
    return new AdapterReadiness(
        () -> Map.of("shop", connector), now::get, Duration.ofSeconds(5), Duration.ofSeconds(2));
  }

  @Test
  void everyAdapterIsReachableAtStartWithoutACheck() {
    Checked shop = new Checked();
    assertThat(readiness(shop).unreachable()).isEmpty();
    assertThat(shop.checks.get()).isZero();
  }

  @Test
  void anUnreachableAdapterIsNamedWithAReasonThatHoldsNoAddress() {
    Checked shop = new Checked();
    AdapterReadiness readiness = readiness(shop);
    shop.down.set(true);
    readiness.checkNow();
    assertThat(readiness.unreachable()).containsExactly(Map.entry("shop", "unreachable"));

    shop.down.set(false);
    readiness.checkNow();
    assertThat(readiness.unreachable()).isEmpty();
  }

  @Test
  void probesCheckAtMostOncePerInterval() throws InterruptedException {
    Checked shop = new Checked();
    AdapterReadiness readiness = readiness(shop);
    for (int i = 0; i < 100; i++) {
      readiness.unreachable();
    }
    assertThat(shop.checks.get()).isZero();

    now.addAndGet(Duration.ofSeconds(5).toNanos());
    for (int i = 0; i < 100; i++) {
      readiness.unreachable();
    }
    long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (shop.checks.get() == 0 && System.nanoTime() < end) {
      Thread.sleep(5);
    }
    Thread.sleep(100);
    assertThat(shop.checks.get()).isEqualTo(1);
  }

  @Test
  void aFailedCheckWhileThePoolIsFullyInUseCountsAsReachable() {
    Checked shop = new Checked();
    AdapterReadiness readiness = readiness(shop);
    shop.down.set(true);
    shop.pool = Optional.of(new PoolUsage(10, 0, 10, 25));
    readiness.checkNow();
    assertThat(readiness.unreachable()).isEmpty();
  }
}

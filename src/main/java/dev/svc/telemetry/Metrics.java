package dev.svc.telemetry;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The metric registry of the process. Our own rather than Micrometer: creating a Micrometer
 * Prometheus registry and its first meters cost 300–700 ms on a cold JVM here (12 jars, and its
 * first scrape another 65–130 ms), more than the whole start-up budget of {@code svc serve}, while
 * svc needs only counters, fixed-bucket histograms, gauges and the Prometheus text format (about
 * 400 lines). The families svc records are in {@link SvcMetrics}.
 */
public final class Metrics {
  private Metrics() {}

  /** Bucket bounds in seconds for every duration histogram: 0.5 ms to 60 s. */
  public static final double[] DURATION_BUCKETS = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
  };

  /**
   * Buckets of script calls: {@link #DURATION_BUCKETS} with 10, 25, 50, 100 and 250 µs in front,
   * since a short handler takes microseconds.
   */
  public static final double[] SCRIPT_DURATION_BUCKETS = {
    0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
    0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
  };

  private static final List<MetricFamily> FAMILIES = new CopyOnWriteArrayList<>();

  /** Where recordings are forwarded besides our own series: OTLP export, when configured. */
  interface Export {
    void add(Counter counter, String[] values, long delta);

    void record(Histogram histogram, String[] values, double value);
  }

  static volatile Export export;

  public static Counter counter(String name, String unit, String help, String... labels) {
    return add(new Counter(name, unit, help, Arrays.asList(labels)));
  }

  public static Histogram histogram(
      String name, String unit, String help, double[] bounds, String... labels) {
    return add(new Histogram(name, unit, help, bounds, Arrays.asList(labels)));
  }

  public static Gauge gauge(String name, String unit, String help, String... labels) {
    return add(new Gauge(name, unit, help, Arrays.asList(labels)));
  }

  /** Every family, in the order they were created. */
  public static List<MetricFamily> families() {
    return List.copyOf(FAMILIES);
  }

  private static <T extends MetricFamily> T add(T family) {
    for (MetricFamily existing : FAMILIES) {
      if (existing.name().equals(family.name())) {
        throw new IllegalStateException("metric " + family.name() + " exists");
      }
    }
    FAMILIES.add(family);
    return family;
  }
}

package dev.svc.telemetry;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * A distribution per label values, in fixed buckets (Prometheus {@code histogram}: {@code _bucket},
 * {@code _sum}, {@code _count}). Recording is a few striped additions: no lock, no allocation once
 * a series exists.
 */
public final class Histogram implements MetricFamily {
  private final String name;
  private final String unit;
  private final String help;
  private final List<String> labels;
  private final double[] bounds;
  private final ConcurrentHashMap<List<String>, Series> series = new ConcurrentHashMap<>();

  /** One series: a count per bucket (not cumulative; the last one is {@code +Inf}), sum, count. */
  static final class Series {
    final LongAdder[] buckets;
    final DoubleAdder sum = new DoubleAdder();
    final LongAdder count = new LongAdder();

    Series(int size) {
      buckets = new LongAdder[size + 1];
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = new LongAdder();
      }
    }
  }

  Histogram(String name, String unit, String help, double[] bounds, List<String> labels) {
    this.name = name;
    this.unit = unit;
    this.help = help;
    this.bounds = bounds.clone();
    this.labels = List.copyOf(labels);
  }

  /** Records one value; {@code values} in the order of {@link #labels()}. */
  public void record(double value, String... values) {
    MetricFamily.checkArity(this, values);
    Series s = MetricFamily.series(series, values, () -> new Series(bounds.length));
    int i = 0;
    while (i < bounds.length && value > bounds[i]) {
      i++;
    }
    s.buckets[i].increment();
    s.sum.add(value);
    s.count.increment();
    Metrics.Export export = Metrics.export;
    if (export != null) {
      export.record(this, values, value);
    }
  }

  /** Records the seconds since {@code startNanos} ({@link System#nanoTime()}). */
  public void recordSince(long startNanos, String... values) {
    record((System.nanoTime() - startNanos) / 1e9, values);
  }

  /** How many values one series recorded (0 when none). */
  public long count(String... values) {
    Series s = series.get(List.of(values));
    return s == null ? 0 : s.count.sum();
  }

  double[] bounds() {
    return bounds.clone();
  }

  Map<List<String>, Series> series() {
    return series;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String unit() {
    return unit;
  }

  @Override
  public String help() {
    return help;
  }

  @Override
  public List<String> labels() {
    return labels;
  }
}

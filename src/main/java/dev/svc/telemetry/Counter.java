package dev.svc.telemetry;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** A monotonic count per label values (Prometheus {@code counter}, suffix {@code _total}). */
public final class Counter implements MetricFamily {
  private final String name;
  private final String unit;
  private final String help;
  private final List<String> labels;
  private final ConcurrentHashMap<List<String>, LongAdder> series = new ConcurrentHashMap<>();

  Counter(String name, String unit, String help, List<String> labels) {
    this.name = name;
    this.unit = unit;
    this.help = help;
    this.labels = List.copyOf(labels);
  }

  /** Adds one; {@code values} in the order of {@link #labels()} ({@code ""} leaves one out). */
  public void increment(String... values) {
    add(1, values);
  }

  public void add(long delta, String... values) {
    MetricFamily.checkArity(this, values);
    MetricFamily.series(series, values, LongAdder::new).add(delta);
    Metrics.Export export = Metrics.export;
    if (export != null) {
      export.add(this, values, delta);
    }
  }

  /** The current count of one series (0 when never counted). */
  public long value(String... values) {
    LongAdder adder = series.get(List.of(values));
    return adder == null ? 0 : adder.sum();
  }

  Map<List<String>, LongAdder> series() {
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

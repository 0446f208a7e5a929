package dev.svc.telemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A value read when metrics are collected (pool usage, cache size): sources registered by whoever
 * owns the measured thing, removed when it closes.
 */
public final class Gauge implements MetricFamily {
  private final String name;
  private final String unit;
  private final String help;
  private final List<String> labels;
  private final Map<Object, Consumer<Sink>> sources = new ConcurrentHashMap<>();

  /** Receives the samples of one collection. */
  @FunctionalInterface
  public interface Sink {
    /** One sample; {@code values} in the order of the gauge's labels. */
    void sample(double value, String... values);
  }

  /** One sample as collected. */
  public record Sample(List<String> values, double value) {}

  Gauge(String name, String unit, String help, List<String> labels) {
    this.name = name;
    this.unit = unit;
    this.help = help;
    this.labels = List.copyOf(labels);
  }

  /**
   * Adds a source of samples, called at each collection; closing the returned handle removes it.
   */
  public AutoCloseable register(Consumer<Sink> source) {
    Object key = new Object();
    sources.put(key, source);
    return () -> sources.remove(key);
  }

  /** Every sample of every source, now. A failing source is skipped. */
  public List<Sample> collect() {
    List<Sample> samples = new ArrayList<>();
    for (Consumer<Sink> source : sources.values()) {
      try {
        source.accept((value, values) -> {
          MetricFamily.checkArity(this, values);
          samples.add(new Sample(List.of(values), value));
        });
      } catch (RuntimeException e) {
        // a source whose owner is closing; its samples are left out of this collection
      }
    }
    return samples;
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

package dev.svc.telemetry;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A named metric with its label keys: a {@link Counter}, a {@link Histogram} or a {@link Gauge}.
 * Names and label keys are OpenTelemetry's ({@code http.server.request.duration}, {@code
 * http.request.method}); {@link PrometheusText} derives the Prometheus names from them.
 */
public sealed interface MetricFamily permits Counter, Histogram, Gauge {
  String name();

  /** UCUM unit: {@code s}, {@code By}, or a count in braces such as {@code {call}}. */
  String unit();

  String help();

  List<String> labels();

  /**
   * The series of {@code values}, made by {@code make} the first time. A known series is found
   * through a view of the caller's array, with no copy; a new one is keyed by a copy.
   */
  static <S> S series(
      ConcurrentHashMap<List<String>, S> series, String[] values, Supplier<S> make) {
    S found = series.get(Arrays.asList(values));
    return found != null ? found : series.computeIfAbsent(List.of(values), k -> make.get());
  }

  /** Checks that one value is given per label key. */
  static void checkArity(MetricFamily family, String[] values) {
    if (values.length != family.labels().size()) {
      throw new IllegalArgumentException(
          family.name() + " takes " + family.labels().size() + " label values");
    }
  }
}

package dev.svc.telemetry;

import java.util.List;

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

  /** Checks that one value is given per label key. */
  static void checkArity(MetricFamily family, String[] values) {
    if (values.length != family.labels().size()) {
      throw new IllegalArgumentException(
          family.name() + " takes " + family.labels().size() + " label values");
    }
  }
}

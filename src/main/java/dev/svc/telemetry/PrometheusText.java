package dev.svc.telemetry;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes metric families in the Prometheus text exposition format 0.0.4. Names follow the
 * OpenTelemetry-to-Prometheus rules: dots become underscores, the unit is appended ({@code
 * _seconds}, {@code _bytes}; counts in braces add nothing) and counters end in {@code _total}; an
 * empty label value leaves the label out.
 */
public final class PrometheusText {
  /** The {@code Content-Type} of {@link #write}'s output. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private PrometheusText() {}

  public static String write(List<MetricFamily> families) {
    StringBuilder out = new StringBuilder(4096);
    for (MetricFamily family : families) {
      String name = name(family);
      switch (family) {
        case Counter counter -> {
          header(out, name, family, "counter");
          for (Map.Entry<List<String>, LongAdder> s : counter.series().entrySet()) {
            sample(out, name, family.labels(), s.getKey(), null, null, s.getValue().sum());
          }
        }
        case Histogram histogram -> {
          header(out, name, family, "histogram");
          double[] bounds = histogram.bounds();
          for (Map.Entry<List<String>, Histogram.Series> s : histogram.series().entrySet()) {
            Histogram.Series series = s.getValue();
            long cumulative = 0;
            for (int i = 0; i <= bounds.length; i++) {
              cumulative += series.buckets[i].sum();
              String le = i < bounds.length ? number(bounds[i]) : "+Inf";
              sample(out, name + "_bucket", family.labels(), s.getKey(), "le", le, cumulative);
            }
            sample(out, name + "_sum", family.labels(), s.getKey(), null, null, series.sum.sum());
            sample(
                out, name + "_count", family.labels(), s.getKey(), null, null, series.count.sum());
          }
        }
        case Gauge gauge -> {
          header(out, name, family, "gauge");
          for (Gauge.Sample s : gauge.collect()) {
            sample(out, name, family.labels(), s.values(), null, null, s.value());
          }
        }
      }
    }
    return out.toString();
  }

  /** The Prometheus name of a family, e.g. {@code http_server_request_duration_seconds}. */
  public static String name(MetricFamily family) {
    String base = sanitize(family.name());
    String unit =
        switch (family.unit()) {
          case "s" -> "_seconds";
          case "By" -> "_bytes";
          default -> "";
        };
    String name = base.endsWith(unit) ? base : base + unit;
    return family instanceof Counter ? name + "_total" : name;
  }

  /** A label key in Prometheus form: {@code http.route} → {@code http_route}. */
  public static String label(String key) {
    return sanitize(key);
  }

  private static String sanitize(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9' && i > 0);
      out.append(ok ? c : '_');
    }
    return out.toString();
  }

  private static void header(StringBuilder out, String name, MetricFamily family, String type) {
    out.append("# HELP ").append(name).append(' ');
    escape(out, family.help(), false);
    out.append('\n').append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(
      StringBuilder out,
      String name,
      List<String> keys,
      List<String> values,
      String extraKey,
      String extraValue,
      double value) {
    out.append(name);
    boolean open = false;
    for (int i = 0; i < keys.size(); i++) {
      if (values.get(i).isEmpty()) {
        continue;
      }
      out.append(open ? ',' : '{');
      open = true;
      out.append(label(keys.get(i))).append("=\"");
      escape(out, values.get(i), true);
      out.append('"');
    }
    if (extraKey != null) {
      out.append(open ? ',' : '{').append(extraKey).append("=\"").append(extraValue).append('"');
      open = true;
    }
    if (open) {
      out.append('}');
    }
    out.append(' ').append(number(value)).append('\n');
  }

  private static String number(double value) {
    if (value == Math.rint(value) && !Double.isInfinite(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return Double.isNaN(value) ? "NaN" : value > 0 ? "+Inf" : "-Inf";
    }
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  private static void escape(StringBuilder out, String text, boolean quotes) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '"' -> out.append(quotes ? "\\\"" : "\"");
        default -> out.append(c);
      }
    }
  }
}

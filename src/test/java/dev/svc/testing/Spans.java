package dev.svc.testing;

import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.Map;

/** Looking up finished spans and their attributes in tracing tests. */
public final class Spans {
  private Spans() {}

  /** The first span with this name; fails listing the names there are. */
  public static SpanData named(List<SpanData> spans, String name) {
    return spans.stream()
        .filter(s -> s.getName().equals(name))
        .findFirst()
        .orElseThrow(() ->
            new AssertionError(
                "no span " + name + " in " + spans.stream().map(SpanData::getName).toList()));
  }

  /** The attribute's value as text, {@code "null"} when the span has none. */
  public static String attribute(SpanData span, String key) {
    return String.valueOf(
        span.getAttributes().asMap().entrySet().stream()
            .filter(e -> e.getKey().getKey().equals(key))
            .map(Map.Entry::getValue)
            .findFirst()
            .orElse(null));
  }
}

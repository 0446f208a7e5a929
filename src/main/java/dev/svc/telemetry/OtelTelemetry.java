package dev.svc.telemetry;

import dev.svc.log.LogContext;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The OpenTelemetry implementation of svc's tracer and metric export: the only class that imports
 * OpenTelemetry, loaded by name from {@link Telemetry#configure} when export is asked for. The SDK
 * is built by its autoconfiguration module from the {@code OTEL_*} variables (endpoint, headers,
 * protocol, sampler, resource, batch settings: the specification's semantics), with the OTLP
 * exporter on the JDK's HTTP client.
 */
public final class OtelTelemetry implements Telemetry.Backend, Tracer {
  private static final String SCOPE = "dev.svc";
  private static final List<String> CARRIER_KEYS = List.of("traceparent", "tracestate", "baggage");
  private static final TextMapGetter<Function<String, Optional<String>>> GETTER =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Function<String, Optional<String>> carrier) {
          return CARRIER_KEYS;
        }

        @Override
        public String get(Function<String, Optional<String>> carrier, String key) {
          return carrier == null ? null : carrier.apply(key).orElse(null);
        }
      };

  private final OpenTelemetry otel;
  private final Runnable shutdown;
  private final io.opentelemetry.api.trace.Tracer tracer;
  private final TextMapPropagator propagator;
  private final boolean tracing;
  private final List<AutoCloseable> gauges = new ArrayList<>();
  private final Map<MetricFamily, Object> instruments = new ConcurrentHashMap<>();

  private OtelTelemetry(OpenTelemetry otel, Runnable shutdown, boolean traces, boolean metrics) {
    this.otel = otel;
    this.shutdown = shutdown;
    this.tracing = traces;
    this.tracer = otel.getTracer(SCOPE, dev.svc.SvcVersion.current());
    this.propagator = otel.getPropagators().getTextMapPropagator();
    if (traces) {
      LogContext.traceIds(Optional.of(OtelTelemetry::currentIds));
    }
    if (metrics) {
      exportMetrics(otel.getMeter(SCOPE));
    }
  }

  /** Called by name from {@link Telemetry#configure}. */
  public static Telemetry.Backend configure(
      Map<String, String> variables,
      Telemetry.Export export,
      String serviceName,
      Optional<String> serviceVersion) {
    Map<String, String> properties = new LinkedHashMap<>();
    variables.forEach(
        (name, value) -> properties.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value));
    // the SDK's default protocol is grpc, whose sender svc does not ship: http/protobuf instead
    properties.putIfAbsent("otel.exporter.otlp.protocol", "http/protobuf");
    // signals svc does not export, or that are not asked for, are off (the SDK's default is otlp)
    properties.put("otel.logs.exporter", "none");
    if (!export.traces()) {
      properties.put("otel.traces.exporter", "none");
    }
    if (!export.metrics()) {
      properties.put("otel.metrics.exporter", "none");
    }
    OpenTelemetrySdk sdk =
        AutoConfiguredOpenTelemetrySdk.builder()
            .addPropertiesSupplier(() -> properties)
            .addResourceCustomizer((resource, config) -> {
              String named = resource.getAttribute(ServiceAttributes.NAME);
              if (named != null && !named.startsWith("unknown_service")) {
                return resource;
              }
              AttributesBuilder service =
                  Attributes.builder().put(ServiceAttributes.NAME, serviceName);
              serviceVersion.ifPresent(v -> service.put(ServiceAttributes.VERSION, v));
              return resource.merge(Resource.create(service.build()));
            })
            .disableShutdownHook()
            .build()
            .getOpenTelemetrySdk();
    return new OtelTelemetry(
        sdk, () -> sdk.shutdown().join(5, TimeUnit.SECONDS), export.traces(), export.metrics());
  }

  /**
   * A backend on an SDK built by the caller (tests: an in-memory exporter), tracing and forwarding
   * metrics.
   */
  public static Telemetry.Backend of(OpenTelemetry otel, Runnable shutdown) {
    return new OtelTelemetry(otel, shutdown, true, true);
  }

  private static final class ServiceAttributes {
    static final AttributeKey<String> NAME = AttributeKey.stringKey("service.name");
    static final AttributeKey<String> VERSION = AttributeKey.stringKey("service.version");
  }

  @Override
  public Tracer tracer() {
    return tracing ? this : Tracer.NOOP;
  }

  @Override
  public void shutdown() {
    LogContext.traceIds(Optional.empty());
    Metrics.export = null;
    for (AutoCloseable gauge : gauges) {
      try {
        gauge.close();
      } catch (Exception e) {
        // closing a gauge callback cannot fail in a way that matters at shutdown
      }
    }
    shutdown.run();
  }

  // ---- tracing

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public Span start(SpanKind kind, String name) {
    return new OtelSpan(tracer.spanBuilder(name).setSpanKind(kind(kind)).startSpan());
  }

  @Override
  public Span start(SpanKind kind, String operation, String target) {
    return start(kind, target.isEmpty() ? operation : operation + " " + target);
  }

  @Override
  public Span startChildOf(Span parent, SpanKind kind, String name) {
    SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(kind(kind));
    if (parent instanceof OtelSpan otelParent) {
      builder.setParent(Context.root().with(otelParent.span));
    } else {
      builder.setNoParent();
    }
    return new OtelSpan(builder.startSpan());
  }

  @Override
  public Span startRemote(
      SpanKind kind, String name, Function<String, Optional<String>> carrier, boolean linkCurrent) {
    SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(kind(kind));
    Context remote = propagator.extract(Context.root(), carrier, GETTER);
    SpanContext remoteSpan = io.opentelemetry.api.trace.Span.fromContext(remote).getSpanContext();
    if (remoteSpan.isValid()) {
      builder.setParent(remote);
      SpanContext ambient = io.opentelemetry.api.trace.Span.current().getSpanContext();
      if (linkCurrent && ambient.isValid()) {
        builder.addLink(ambient);
      }
    }
    return new OtelSpan(builder.startSpan());
  }

  @Override
  public Span current() {
    io.opentelemetry.api.trace.Span span = io.opentelemetry.api.trace.Span.current();
    return span.getSpanContext().isValid() ? new OtelSpan(span) : Span.NOOP;
  }

  private static Optional<LogContext.TraceIds.Ids> currentIds() {
    SpanContext context = io.opentelemetry.api.trace.Span.current().getSpanContext();
    return context.isValid()
        ? Optional.of(new LogContext.TraceIds.Ids(context.getTraceId(), context.getSpanId()))
        : Optional.empty();
  }

  private static io.opentelemetry.api.trace.SpanKind kind(SpanKind kind) {
    return switch (kind) {
      case SERVER -> io.opentelemetry.api.trace.SpanKind.SERVER;
      case CLIENT -> io.opentelemetry.api.trace.SpanKind.CLIENT;
      case INTERNAL -> io.opentelemetry.api.trace.SpanKind.INTERNAL;
    };
  }

  private record OtelSpan(io.opentelemetry.api.trace.Span span) implements Span {
    @Override
    public Span set(String key, String value) {
      span.setAttribute(key, value);
      return this;
    }

    @Override
    public Span set(String key, long value) {
      span.setAttribute(key, value);
      return this;
    }

    @Override
    public Span set(String key, boolean value) {
      span.setAttribute(key, value);
      return this;
    }

    @Override
    public Span fail(String errorType, String description) {
      span.setAttribute("error.type", errorType);
      span.setStatus(StatusCode.ERROR, description);
      return this;
    }

    @Override
    public Scope activate() {
      io.opentelemetry.context.Scope scope = span.makeCurrent();
      return scope::close;
    }

    @Override
    public void end() {
      span.end();
    }

    @Override
    public boolean isRecording() {
      return span.isRecording();
    }
  }

  // ---- metrics

  private void exportMetrics(Meter meter) {
    SvcMetrics.HTTP_DURATION.name(); // every family of svc exists before the gauges are listed
    for (MetricFamily family : Metrics.families()) {
      if (family instanceof Gauge gauge) {
        gauges.add(
            meter
                .gaugeBuilder(gauge.name())
                .setUnit(gauge.unit())
                .setDescription(gauge.help())
                .buildWithCallback(measurement -> {
                  for (Gauge.Sample sample : gauge.collect()) {
                    measurement.record(
                        sample.value(),
                        attributes(gauge.labels(), sample.values().toArray(String[]::new)));
                  }
                }));
      }
    }
    Metrics.export =
        new Metrics.Export() {
          @Override
          public void add(Counter counter, String[] values, long delta) {
            LongCounter instrument =
                (LongCounter)
                    instruments.computeIfAbsent(
                        counter,
                        c ->
                            meter
                                .counterBuilder(c.name())
                                .setUnit(c.unit())
                                .setDescription(c.help())
                                .build());
            instrument.add(delta, attributes(counter.labels(), values));
          }

          @Override
          public void record(Histogram histogram, String[] values, double value) {
            DoubleHistogram instrument =
                (DoubleHistogram)
                    instruments.computeIfAbsent(histogram, h -> histogram(meter, histogram));
            instrument.record(value, attributes(histogram.labels(), values));
          }
        };
  }

  private static DoubleHistogram histogram(Meter meter, Histogram histogram) {
    List<Double> bounds = new ArrayList<>();
    for (double bound : histogram.bounds()) {
      bounds.add(bound);
    }
    return meter
        .histogramBuilder(histogram.name())
        .setUnit(histogram.unit())
        .setDescription(histogram.help())
        .setExplicitBucketBoundariesAdvice(bounds)
        .build();
  }

  private static Attributes attributes(List<String> keys, String[] values) {
    AttributesBuilder builder = Attributes.builder();
    for (int i = 0; i < keys.size(); i++) {
      if (!values[i].isEmpty()) {
        builder.put(keys.get(i), values[i]);
      }
    }
    return builder.build();
  }
}

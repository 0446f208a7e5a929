package dev.svc.telemetry;

import dev.svc.log.Log;
import dev.svc.log.SafeUrls;
import java.lang.reflect.InvocationTargetException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The tracer of the process and the switch that turns OpenTelemetry on. Off by default: {@link
 * #tracer()} is {@link Tracer#NOOP} and no OpenTelemetry class is loaded. {@link #configure} turns
 * it on when the standard {@code OTEL_*} variables ask for export, and only then loads {@code
 * OtelTelemetry} (by name, so that nothing else refers to OpenTelemetry's classes).
 */
public final class Telemetry {
  private static final Log LOG = Log.tagged("telemetry");
  private static final String OTEL_CLASS = "dev.svc.telemetry.OtelTelemetry";

  private static volatile Tracer tracer = Tracer.NOOP;
  private static volatile Optional<Backend> backend = Optional.empty();

  private Telemetry() {}

  /** An installed telemetry implementation: its tracer, and how to flush and stop it. */
  public interface Backend {
    Tracer tracer();

    /** Exports what is buffered and stops; bounded in time. */
    void shutdown();
  }

  /**
   * What the environment asks to export, following the OpenTelemetry SDK variables: {@code
   * OTEL_SDK_DISABLED=true} turns everything off; a signal is exported when its {@code
   * OTEL_<SIGNAL>_EXPORTER} names an exporter other than {@code none}, or when it is unset and an
   * OTLP endpoint ({@code OTEL_EXPORTER_OTLP_ENDPOINT} or the signal's own) is set. Unlike the
   * SDK's default ({@code otlp}), nothing is exported when nothing is configured: svc runs in many
   * places without a collector.
   */
  public record Export(boolean traces, boolean metrics) {
    public static Export of(Map<String, String> otel) {
      if (otel.getOrDefault("OTEL_SDK_DISABLED", "").strip().equalsIgnoreCase("true")) {
        return new Export(false, false);
      }
      return new Export(signal(otel, "TRACES"), signal(otel, "METRICS"));
    }

    private static boolean signal(Map<String, String> otel, String signal) {
      String exporter = otel.getOrDefault("OTEL_" + signal + "_EXPORTER", "").strip();
      if (!exporter.isEmpty()) {
        return !exporter.toLowerCase(Locale.ROOT).equals("none");
      }
      return !otel.getOrDefault("OTEL_EXPORTER_OTLP_ENDPOINT", "").isBlank()
          || !otel.getOrDefault("OTEL_EXPORTER_OTLP_" + signal + "_ENDPOINT", "").isBlank();
    }

    public boolean any() {
      return traces || metrics;
    }
  }

  public static Tracer tracer() {
    return tracer;
  }

  /**
   * Turns OpenTelemetry export on when {@code otel} (the {@code OTEL_*} variables, {@code .env}
   * included) asks for it. A configuration the SDK rejects is logged and leaves telemetry off: a
   * collector problem must not stop serving.
   *
   * @return what is exported
   */
  public static Export configure(
      Map<String, String> otel, String serviceName, Optional<String> serviceVersion) {
    Export export = Export.of(otel);
    if (!export.any()) {
      return export;
    }
    try {
      Backend configured =
          (Backend)
              Class.forName(OTEL_CLASS)
                  .getMethod("configure", Map.class, Export.class, String.class, Optional.class)
                  .invoke(null, otel, export, serviceName, serviceVersion);
      install(configured);
      LOG.info(
          "OpenTelemetry export on",
          "traces",
          export.traces(),
          "metrics",
          export.metrics(),
          "endpoint",
          SafeUrls.shown(
              otel.getOrDefault("OTEL_EXPORTER_OTLP_ENDPOINT", "default"), "(not a URL)"));
      return export;
    } catch (InvocationTargetException e) {
      LOG.error(
          "OpenTelemetry is off: its configuration was refused",
          "error",
          withoutValues(String.valueOf(e.getCause().getMessage()), otel));
    } catch (ReflectiveOperationException | LinkageError e) {
      LOG.error("OpenTelemetry is off: it could not be loaded", "error", String.valueOf(e));
    }
    return new Export(false, false);
  }

  /** Installs a backend (tests install one with an in-memory exporter); replaces the previous. */
  public static void install(Backend installed) {
    Optional<Backend> previous = backend;
    backend = Optional.of(installed);
    tracer = installed.tracer();
    previous.ifPresent(Backend::shutdown);
  }

  /** Flushes and stops the backend; the tracer is a no-op afterwards. */
  public static void shutdown() {
    Optional<Backend> previous = backend;
    backend = Optional.empty();
    tracer = Tracer.NOOP;
    previous.ifPresent(Backend::shutdown);
  }

  /**
   * The SDK's complaint about a setting, without the settings' values: it quotes what it refused
   * ({@code otel.exporter.otlp.headers=Authorization=Bearer …}), and headers hold credentials.
   */
  static String withoutValues(String message, Map<String, String> otel) {
    String cleaned = message;
    for (Map.Entry<String, String> setting : otel.entrySet()) {
      if (!setting.getKey().matches(".*(HEADERS|ENDPOINT|KEY|TOKEN|SECRET|PASSWORD).*")) {
        continue; // a protocol or a sampler name says what was refused and holds nothing secret
      }
      String value = setting.getValue();
      for (String part : (value + "," + value.replace(',', '\n')).split("[,\n]")) {
        if (part.strip().length() >= 8) {
          cleaned = cleaned.replace(part.strip(), "[redacted]");
        }
      }
      if (value.length() >= 8) {
        cleaned = cleaned.replace(value, "[redacted]");
      }
    }
    return cleaned;
  }
}

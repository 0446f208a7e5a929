/**
 * Traces and metrics of svc behind small interfaces of our own. {@link dev.svc.telemetry.Telemetry}
 * holds the {@link dev.svc.telemetry.Tracer}: a no-op unless the {@code OTEL_*} environment asks
 * for export, and only then are OpenTelemetry's classes loaded ({@code OtelTelemetry}). {@link
 * dev.svc.telemetry.Metrics} are always on: counters, histograms and gauges of our own, served in
 * the Prometheus text format at {@code GET /metrics} and forwarded to OpenTelemetry when metric
 * export is configured. Imports nothing of svc but the logger.
 */
package dev.svc.telemetry;

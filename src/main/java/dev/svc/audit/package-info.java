/**
 * The audit trail: one JSON line per tool call and per agent task, written to a file off the
 * calling thread. Imports nothing of svc but the logger and telemetry.
 */
package dev.svc.audit;

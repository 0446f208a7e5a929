/**
 * The structured logger of svc: levels 1–4, text or JSON lines, tag filters, a file tee, and the
 * request id on every line. Small enough to own; it keeps start-up fast and secrets out by design.
 */
package dev.svc.log;

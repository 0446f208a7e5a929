package dev.svc.log;

/** How log lines are written: readable text, or one JSON object per line for log shippers. */
public enum LogFormat {
  TEXT,
  JSON
}

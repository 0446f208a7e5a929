package dev.svc.protocol.a2a;

import java.util.Locale;
import java.util.Optional;

/** A2A v1 {@code TaskState}; on the wire as {@code TASK_STATE_*}. */
public enum TaskState {
  UNSPECIFIED,
  SUBMITTED,
  WORKING,
  COMPLETED,
  FAILED,
  CANCELED,
  INPUT_REQUIRED,
  REJECTED,
  AUTH_REQUIRED;

  public String wireName() {
    return "TASK_STATE_" + name();
  }

  /** COMPLETED, FAILED, CANCELED and REJECTED: the task will not change any more. */
  public boolean isTerminal() {
    return this == COMPLETED || this == FAILED || this == CANCELED || this == REJECTED;
  }

  /** Reads {@code TASK_STATE_COMPLETED}; the v0.3 spelling {@code completed} is accepted too. */
  public static Optional<TaskState> parse(String text) {
    String name = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
    if (name.startsWith("TASK_STATE_")) {
      name = name.substring("TASK_STATE_".length());
    }
    if (name.equals("CANCELLED")) {
      name = "CANCELED";
    }
    for (TaskState state : values()) {
      if (state.name().equals(name)) {
        return Optional.of(state);
      }
    }
    return Optional.empty();
  }
}

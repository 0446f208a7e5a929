package dev.svc.diagnostic;

import java.util.Locale;

/** How bad a diagnostic is: errors make a project invalid, warnings do not. */
public enum Severity {
  ERROR,
  WARNING;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}

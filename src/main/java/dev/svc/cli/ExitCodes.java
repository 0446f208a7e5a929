package dev.svc.cli;

/** Exit codes of every command, in one place. */
public final class ExitCodes {
  private ExitCodes() {}

  /** The command did what was asked. */
  public static final int OK = 0;

  /** The project is invalid, or the run failed. */
  public static final int FAILED = 1;

  /** The command line itself is wrong (unknown flag, missing argument). */
  public static final int USAGE = 2;
}

package dev.svc.script;

/**
 * A finished {@code fetch} as the sandbox receives it: JSON {@code {status, statusText, url,
 * headers, body}} or {@code {error}}, and what gives back the heap it holds for the process's fetch
 * budget ({@link FetchMemory}) once the call has taken it.
 */
public record FetchAnswer(String json, Runnable release) {
  private static final Runnable NOTHING = () -> {};

  /** An answer that holds nothing of the fetch budget (an error, or a test's answer). */
  public static FetchAnswer of(String json) {
    return new FetchAnswer(json, NOTHING);
  }
}

package dev.svc.suite;

/**
 * An expectation that did not hold.
 *
 * @param expectation the expectation, as a test file names it ({@code result}, {@code json_path
 *     $[0].name}, …)
 * @param message one line saying what differs
 * @param diff the expected and actual values side by side as a unified line diff ({@code -}
 *     expected, {@code +} actual), or empty when a line says it all
 */
public record Mismatch(String expectation, String message, String diff) {}

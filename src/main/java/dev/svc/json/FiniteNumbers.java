package dev.svc.json;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.NumericNode;
import tools.jackson.databind.node.ValueNode;

/**
 * A node factory for reading what clients send: a number too large for a 64-bit float (such as
 * {@code 1e400}, which Jackson reads as infinity) is refused as the body is read, instead of
 * travelling on as a value no tool input, schema or database can take. JSON allows a reader to
 * limit the range of numbers (RFC 8259 §6); svc's limit is the double's, ±1.7976931348623157e308.
 * Numbers too small to tell from zero (such as {@code 1e-400}) read as 0, as every JSON reader
 * built on doubles does.
 */
public final class FiniteNumbers extends JsonNodeFactory {
  private static final long serialVersionUID = 1L;

  /** The one instance: the factory keeps no state. */
  public static final FiniteNumbers INSTANCE = new FiniteNumbers();

  private FiniteNumbers() {}

  /** Thrown while reading a number outside the double's range. */
  public static final class OutOfRange extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfRange() {
      super(
          "a number is out of range: svc reads JSON numbers as 64-bit floating point, "
              + "at most ±1.7976931348623157e308",
          null,
          false,
          false);
    }
  }

  @Override
  public NumericNode numberNode(double value) {
    return super.numberNode(finite(value));
  }

  @Override
  public NumericNode numberNode(float value) {
    return super.numberNode(finite(value));
  }

  @Override
  public ValueNode numberNode(Double value) {
    return super.numberNode(value == null ? null : finite(value));
  }

  @Override
  public ValueNode numberNode(Float value) {
    return super.numberNode(value == null ? null : (float) finite(value));
  }

  private static double finite(double value) {
    if (!Double.isFinite(value)) {
      throw new OutOfRange();
    }
    return value;
  }
}

package dev.svc.script;

/** A type check that could not finish: too big, too slow, or the compiler broke. */
final class TypeCheckFailedException extends RuntimeException {
  TypeCheckFailedException(String message) {
    super(message);
  }
}

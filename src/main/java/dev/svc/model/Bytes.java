package dev.svc.model;

import java.util.Arrays;

/** Immutable bytes with value equality (file contents embedded in a built model). */
public final class Bytes {
  private final byte[] bytes;

  Bytes(byte[] bytes) {
    this.bytes = bytes;
  }

  public static Bytes of(byte[] bytes) {
    return new Bytes(bytes.clone());
  }

  /** A copy of the bytes. */
  public byte[] toArray() {
    return bytes.clone();
  }

  public int size() {
    return bytes.length;
  }

  byte[] unsafeArray() {
    return bytes;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Bytes b && Arrays.equals(bytes, b.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return bytes.length + " bytes";
  }
}

package dev.svc.model;

import dev.svc.SvcException;

/** A built artifact ({@code model.bin}) cannot be used: not one, newer, or damaged. */
public final class ArtifactException extends SvcException {
  public ArtifactException(String message) {
    super(message);
  }
}

package dev.svc.project;

import dev.svc.SvcException;

/** No root configuration could be found where the user pointed. */
public final class ProjectNotFoundException extends SvcException {
  public ProjectNotFoundException(String message) {
    super(message);
  }
}

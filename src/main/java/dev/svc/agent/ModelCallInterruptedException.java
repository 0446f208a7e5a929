package dev.svc.agent;

/**
 * The thread running a model call was interrupted (the task was canceled); the call was aborted.
 */
public final class ModelCallInterruptedException extends ModelException {
  public ModelCallInterruptedException() {
    super("the model call was interrupted");
  }
}

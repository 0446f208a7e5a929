package dev.svc.script;

import com.caoccao.javet.interfaces.IJavetLogger;
import dev.svc.log.Log;

/** Javet's own messages (e.g. a guard that fired) go to svc's debug log, tagged {@code script}. */
enum JavetDebugLog implements IJavetLogger {
  INSTANCE;

  private static final Log LOG = Log.tagged("script");

  @Override
  public void debug(String message) {
    LOG.debug(message);
  }

  @Override
  public void error(String message) {
    LOG.debug(message);
  }

  @Override
  public void error(String message, Throwable cause) {
    LOG.debug(message, cause);
  }

  @Override
  public void info(String message) {
    LOG.debug(message);
  }

  @Override
  public void warn(String message) {
    LOG.debug(message);
  }
}

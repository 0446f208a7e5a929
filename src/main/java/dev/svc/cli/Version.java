package dev.svc.cli;

import dev.svc.SvcVersion;
import picocli.CommandLine.IVersionProvider;

/** Prints {@code svc <version>} for {@code --version}. */
public final class Version implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"svc " + SvcVersion.current()};
  }
}

package dev.svc.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The version of this build, as Maven wrote it. */
public final class Version implements IVersionProvider {
  private static final String VERSION = load();

  public static String current() {
    return VERSION;
  }

  @Override
  public String[] getVersion() {
    return new String[] {"svc " + VERSION};
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream("/dev/svc/version.properties")) {
      if (in == null) {
        return "dev";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "dev");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

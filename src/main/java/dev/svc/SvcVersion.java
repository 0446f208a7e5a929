package dev.svc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The version of this build of svc, as Maven wrote it. */
public final class SvcVersion {
  private static final String VERSION = load();

  private SvcVersion() {}

  public static String current() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = SvcVersion.class.getResourceAsStream("/dev/svc/version.properties")) {
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

package dev.svc.script;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The TypeScript compiler that ships in svc ({@value TypeChecker#BUNDLED_VERSION}, from the
 * org.mvnpm jar): its JavaScript and its lib files, each read from the jar once, when first needed.
 */
final class BundledTypeScript {
  private static final String BUNDLED =
      "META-INF/resources/_static/typescript/" + TypeChecker.BUNDLED_VERSION + "/lib/typescript.js";
  private static final String BUNDLED_LIBS = "META-INF/.more.tgz";

  private static volatile Map<String, String> bundledLibs;

  private BundledTypeScript() {}

  /** The lib files of the bundled compiler, read once from its jar ({@code lib.*.d.ts}). */
  static Map<String, String> libs() {
    Map<String, String> libs = bundledLibs;
    if (libs != null) {
      return libs;
    }
    synchronized (BundledTypeScript.class) {
      if (bundledLibs == null) {
        bundledLibs = readLibs();
      }
      return bundledLibs;
    }
  }

  /** The {@code lib/lib.*.d.ts} entries of the jar's tar.gz of further files. */
  private static Map<String, String> readLibs() {
    Map<String, String> libs = new HashMap<>();
    try (InputStream raw = inCompilerJar(BUNDLED_LIBS).openStream()) {
      InputStream tar = new GZIPInputStream(raw);
      byte[] header = new byte[512];
      while (tar.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
        String name = field(header, 0, 100);
        String prefix = field(header, 345, 155);
        if (!prefix.isEmpty()) {
          name = prefix + "/" + name;
        }
        long size = Long.parseLong(field(header, 124, 12).trim(), 8);
        byte[] body = tar.readNBytes((int) size);
        long padding = (512 - size % 512) % 512;
        tar.skipNBytes(padding);
        String base = name.substring(name.lastIndexOf('/') + 1);
        if (name.contains("/lib/") && base.startsWith("lib.") && base.endsWith(".d.ts")) {
          libs.put(base, new String(body, StandardCharsets.UTF_8));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read TypeScript's lib files", e);
    }
    return Map.copyOf(libs);
  }

  /**
   * A resource of the compiler's own jar: every org.mvnpm jar has a {@code META-INF/.more.tgz} (the
   * dev console's marked and DOMPurify too), so the class path's first one may not be ours.
   */
  private static URL inCompilerJar(String resource) throws IOException {
    URL source = BundledTypeScript.class.getClassLoader().getResource(BUNDLED);
    if (source == null) {
      throw new IllegalStateException("missing resource " + BUNDLED);
    }
    String url = source.toString();
    int separator = url.indexOf("!/");
    if (!url.startsWith("jar:") || separator < 0) {
      throw new IllegalStateException("the TypeScript compiler is not in a jar: " + url);
    }
    return URI.create(url.substring(0, separator + 2) + resource).toURL();
  }

  private static String field(byte[] header, int offset, int length) {
    int end = offset;
    while (end < offset + length && header[end] != 0) {
      end++;
    }
    return new String(header, offset, end - offset, StandardCharsets.US_ASCII);
  }

  private static volatile String bundledSource;

  static String source() {
    String source = bundledSource;
    if (source == null) {
      source = resource(BUNDLED);
      bundledSource = source;
    }
    return source;
  }

  static String resource(String name) {
    try (InputStream in = BundledTypeScript.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

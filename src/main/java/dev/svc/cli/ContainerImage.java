package dev.svc.cli;

import dev.svc.SvcException;
import dev.svc.SvcVersion;
import dev.svc.model.Service;
import dev.svc.runtime.ProjectRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A built project as an OCI image on an empty ({@code scratch}) base, in four layers ordered from
 * what changes least to what changes most, so that rebuilding a project only changes the last one:
 *
 * <ol>
 *   <li>{@code base}: the C library the Java runtime links against (from this machine), {@code
 *       /etc/passwd} with the non-root user, an empty {@code /tmp};
 *   <li>{@code java}: the linked Java runtime at {@code /opt/java};
 *   <li>{@code svc}: {@code /app/lib/svc.jar} and its dependencies;
 *   <li>{@code project}: {@code /app/model.bin}, the script bundles, seed files and the start-up
 *       cache (which is trained for this project).
 * </ol>
 *
 * The image runs as uid/gid {@value #UID} and writes nothing outside {@code /tmp}, so it runs with
 * a read-only root filesystem and {@code /tmp} as a writable volume.
 */
final class ContainerImage {
  static final int UID = 65532;
  static final String APP = "app";
  static final String JAVA = "opt/java";
  static final int DEFAULT_PORT = 8080;
  static final String DATA = "/data";

  /** glibc's loader and the libraries Temurin's binaries and V8 link against (per ldd). */
  private static final List<String> GLIBC =
      List.of("libc.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libm.so.6");

  private ContainerImage() {}

  /**
   * Writes the image of the artifact staged in {@code app} (built by {@link ArtifactLayout}) with
   * the runtime in {@code java} to {@code target}.
   *
   * @return the manifest digest
   */
  static String write(Path app, Path java, Service service, Path target, Path scratch) {
    OciImage image = new OciImage(scratch);
    image.addLayer("base", baseLayer());
    image.addLayer("java", tree(java, JAVA, path -> true));
    image.addLayer(
        "svc", tree(app, APP, path -> path.startsWith("lib/") && !path.equals("lib/svc.aot")));
    image.addLayer("project", tree(app, APP, ContainerImage::isProjectFile));
    return image.write(target, runConfig(app, service), reference(service));
  }

  /** Files of the project layer: everything but the runtime jars, the launcher and env files. */
  private static boolean isProjectFile(String path) {
    String name = path.substring(path.lastIndexOf('/') + 1);
    if (name.equals(".env") || name.startsWith(".env.")) {
      return false; // never bake secrets in
    }
    return path.equals("lib/svc.aot") || !(path.startsWith("lib/") || path.equals("svc"));
  }

  static String reference(Service service) {
    return service.name() + ":" + service.version().orElse("latest");
  }

  static OciImage.RunConfig runConfig(Path app, Service service) {
    List<String> entrypoint = new ArrayList<>();
    entrypoint.add("/" + JAVA + "/bin/java");
    entrypoint.addAll(AotTraining.SERVE_FLAGS);
    if (Files.isRegularFile(app.resolve("lib/svc.aot"))) {
      entrypoint.addAll(List.of("-XX:AOTCache=lib/svc.aot", "-Xlog:aot=off", "-Xlog:cds=off"));
    } else {
      entrypoint.add("-Xshare:auto");
    }
    if (Files.isRegularFile(app.resolve("lib/native/libsqlitejdbc.so"))) {
      entrypoint.add("-Dorg.sqlite.lib.path=/" + APP + "/lib/native");
      entrypoint.add("-Dorg.sqlite.lib.name=libsqlitejdbc.so");
    }
    entrypoint.addAll(
        List.of(
            "-Djava.io.tmpdir=/tmp",
            "-Dsvc.cwd=/" + APP,
            "-jar",
            "lib/svc.jar",
            "serve",
            ServeCommand.MODEL_FILE,
            "--address",
            "0.0.0.0"));
    int port = service.port().orElse(DEFAULT_PORT);
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("org.opencontainers.image.title", service.name());
    service.version().ifPresent(v -> labels.put("org.opencontainers.image.version", v));
    labels.put(
        "org.opencontainers.image.description",
        "svc service " + service.name() + " (MCP at /mcp, probes at /heartbeat)");
    labels.put("org.opencontainers.image.base.name", "scratch");
    labels.put("dev.svc.version", SvcVersion.current());
    return new OciImage.RunConfig(
        entrypoint,
        List.of(),
        List.of(
            "PORT=" + DEFAULT_PORT,
            "MALLOC_ARENA_MAX=2", // as bin/svc sets it (docs/serving.md, "Memory")
            "HOME=/tmp",
            "SVC_CACHE_DIR=/tmp/svc-cache",
            ProjectRuntime.DATA_DIRECTORY_VARIABLE + "=" + DATA,
            "LANG=C.UTF-8"),
        "/" + APP,
        UID + ":" + UID,
        List.of(port + "/tcp"),
        labels);
  }

  private static List<OciImage.Entry> baseLayer() {
    Path libDir = firstExisting("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu");
    Path loader = Path.of("/lib64/ld-linux-x86-64.so.2");
    if (libDir == null || !Files.exists(loader)) {
      throw new SvcException(
          "svc build --image needs Linux on x86-64 with glibc (the image takes its C library from"
              + " this machine); build the image on such a machine or in a Linux container");
    }
    List<OciImage.Entry> entries = new ArrayList<>();
    entries.add(new OciImage.Entry.Directory("etc", 0755));
    entries.add(
        new OciImage.Entry.Bytes(
            "etc/group",
            0644,
            ("root:x:0:\nnonroot:x:" + UID + ":\n").getBytes(StandardCharsets.UTF_8)));
    entries.add(
        new OciImage.Entry.Bytes(
            "etc/nsswitch.conf", 0644, "hosts: files dns\n".getBytes(StandardCharsets.UTF_8)));
    entries.add(
        new OciImage.Entry.Bytes(
            "etc/passwd",
            0644,
            ("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:"
                    + UID
                    + ":"
                    + UID
                    + ":nonroot:/home/nonroot:/sbin/nologin\n")
                .getBytes(StandardCharsets.UTF_8)));
    entries.add(new OciImage.Entry.Directory("home", 0755));
    entries.add(new OciImage.Entry.Directory("home/nonroot", 0755));
    entries.add(new OciImage.Entry.Directory("lib", 0755));
    entries.add(new OciImage.Entry.Directory("lib/x86_64-linux-gnu", 0755));
    for (String library : GLIBC) {
      Path file = libDir.resolve(library);
      if (!Files.exists(file)) {
        throw new SvcException("svc build --image: " + file + " is missing");
      }
      entries.add(new OciImage.Entry.FromFile("lib/x86_64-linux-gnu/" + library, 0755, real(file)));
    }
    entries.add(new OciImage.Entry.Directory("lib64", 0755));
    entries.add(new OciImage.Entry.FromFile("lib64/ld-linux-x86-64.so.2", 0755, real(loader)));
    entries.add(new OciImage.Entry.Directory("tmp", 01777));
    // relative SQLite databases go here (SVC_DATA_DIR): writable by the user, or a volume
    entries.add(new OciImage.Entry.Directory(DATA.substring(1), 0755, UID));
    return entries;
  }

  /**
   * Every file under {@code root} whose relative path {@code include} accepts, placed under {@code
   * prefix}, sorted by path, with the directories leading to them; symbolic links are followed.
   */
  private static List<OciImage.Entry> tree(Path root, String prefix, Predicate<String> include) {
    List<String> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files =
          walk.filter(Files::isRegularFile)
              .map(p -> root.relativize(p).toString())
              .filter(include)
              .sorted()
              .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + root, e);
    }
    List<OciImage.Entry> entries = new ArrayList<>();
    Set<String> directories = new HashSet<>();
    for (String file : files) {
      String path = prefix + "/" + file;
      int slash = -1;
      while ((slash = path.indexOf('/', slash + 1)) > 0) {
        String directory = path.substring(0, slash);
        if (directories.add(directory)) {
          entries.add(new OciImage.Entry.Directory(directory, 0755));
        }
      }
      Path source = root.resolve(file);
      entries.add(
          new OciImage.Entry.FromFile(path, Files.isExecutable(source) ? 0755 : 0644, source));
    }
    return entries;
  }

  private static Path real(Path file) {
    try {
      return file.toRealPath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path firstExisting(String... candidates) {
    for (String candidate : candidates) {
      Path path = Path.of(candidate);
      if (Files.isRegularFile(path.resolve("libc.so.6"))) {
        return path;
      }
    }
    return null;
  }

  /** Sets every file's modification time to the one the image's tar entries carry. */
  static void normaliseTimes(Path root) {
    FileTime time = FileTime.fromMillis(TarWriter.MTIME_SECONDS * 1000);
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : (Iterable<Path>) walk::iterator) {
        Files.setLastModifiedTime(path, time);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot set the times of " + root, e);
    }
  }
}

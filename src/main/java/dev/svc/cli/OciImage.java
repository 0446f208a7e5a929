package dev.svc.cli;

import dev.svc.json.Jackson;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;

/**
 * Writes an OCI image layout as one tar file (opencontainers/image-spec {@code image-layout.md},
 * {@code manifest.md}, {@code config.md}): {@code oci-layout}, {@code index.json} and {@code
 * blobs/sha256/…} holding the config, the manifest and gzip-compressed layers. The same layers and
 * config give the same bytes, so the digest of an unchanged layer never changes between builds. No
 * daemon and no registry are involved; {@code skopeo copy oci-archive:…}, {@code podman load} and
 * {@code docker load} (Docker 25+) read the file.
 */
final class OciImage {
  static final String MANIFEST_TYPE = "application/vnd.oci.image.manifest.v1+json";
  static final String CONFIG_TYPE = "application/vnd.oci.image.config.v1+json";
  static final String LAYER_TYPE = "application/vnd.oci.image.layer.v1.tar+gzip";

  /** One file of a layer: its path in the image (no leading slash) and where its bytes are. */
  sealed interface Entry {
    String path();

    int mode();

    /** A directory owned by {@code owner} (uid and gid); root's unless said otherwise. */
    record Directory(String path, int mode, int owner) implements Entry {
      Directory(String path, int mode) {
        this(path, mode, 0);
      }
    }

    record FromFile(String path, int mode, Path source) implements Entry {}

    record Bytes(String path, int mode, byte[] content) implements Entry {}
  }

  /** A layer as written: the compressed blob, its digest and the digest of its tar (diff_id). */
  record Layer(String name, Path blob, String digest, String diffId, long size) {}

  /** What runs: the image config's {@code config} object. */
  record RunConfig(
      List<String> entrypoint,
      List<String> cmd,
      List<String> env,
      String workingDir,
      String user,
      List<String> exposedPorts,
      Map<String, String> labels) {}

  private final Path scratch;
  private final List<Layer> layers = new ArrayList<>();

  /**
   * @param scratch a directory for the compressed layers until {@link #write} copies them
   */
  OciImage(Path scratch) {
    this.scratch = scratch;
  }

  /** Adds a layer holding {@code entries} in the given order (parents before children). */
  Layer addLayer(String name, List<Entry> entries) {
    Path blob = scratch.resolve("layer-" + layers.size() + ".tar.gz");
    try {
      MessageDigest compressed = sha256();
      MessageDigest uncompressed = sha256();
      try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(blob), 1 << 16);
          DigestOutputStream compressedOut = new DigestOutputStream(file, compressed);
          GZIPOutputStream gzip = new GZIPOutputStream(compressedOut, 1 << 16);
          TarWriter tar = new TarWriter(new DigestOutputStream(gzip, uncompressed))) {
        for (Entry entry : entries) {
          switch (entry) {
            case Entry.Directory d -> tar.directory(d.path(), d.mode(), d.owner());
            case Entry.Bytes b -> tar.file(b.path(), b.mode(), b.content());
            case Entry.FromFile f -> {
              try (InputStream in = Files.newInputStream(f.source())) {
                tar.file(f.path(), f.mode(), Files.size(f.source()), in);
              }
            }
          }
        }
      }
      Layer layer =
          new Layer(
              name,
              blob,
              "sha256:" + HexFormat.of().formatHex(compressed.digest()),
              "sha256:" + HexFormat.of().formatHex(uncompressed.digest()),
              Files.size(blob));
      layers.add(layer);
      return layer;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the image layer " + name, e);
    }
  }

  /**
   * Writes the image layout tar to {@code target}.
   *
   * @param refName the {@code org.opencontainers.image.ref.name} of the manifest in {@code
   *     index.json} (the name {@code podman load} gives the image)
   * @return the manifest digest
   */
  String write(Path target, RunConfig run, String refName) {
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("architecture", "amd64");
    config.put("os", "linux");
    Map<String, Object> runtime = new LinkedHashMap<>();
    runtime.put("User", run.user());
    Map<String, Object> ports = new LinkedHashMap<>();
    run.exposedPorts().forEach(p -> ports.put(p, Map.of()));
    runtime.put("ExposedPorts", ports);
    runtime.put("Env", run.env());
    runtime.put("Entrypoint", run.entrypoint());
    runtime.put("Cmd", run.cmd());
    runtime.put("WorkingDir", run.workingDir());
    runtime.put("Labels", new TreeMap<>(run.labels()));
    config.put("config", runtime);
    Map<String, Object> rootfs = new LinkedHashMap<>();
    rootfs.put("type", "layers");
    rootfs.put("diff_ids", layers.stream().map(Layer::diffId).toList());
    config.put("rootfs", rootfs);
    List<Map<String, Object>> history = new ArrayList<>();
    for (Layer layer : layers) {
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("created", "1970-01-01T00:00:01Z");
      step.put("created_by", "svc build --image: " + layer.name());
      history.add(step);
    }
    config.put("history", history);
    config.put("created", "1970-01-01T00:00:01Z");
    byte[] configBytes = json(config);
    String configDigest = digest(configBytes);

    Map<String, Object> manifest = new LinkedHashMap<>();
    manifest.put("schemaVersion", 2);
    manifest.put("mediaType", MANIFEST_TYPE);
    manifest.put("config", descriptor(CONFIG_TYPE, configDigest, configBytes.length));
    manifest.put(
        "layers", layers.stream().map(l -> descriptor(LAYER_TYPE, l.digest(), l.size())).toList());
    byte[] manifestBytes = json(manifest);
    String manifestDigest = digest(manifestBytes);

    Map<String, Object> manifestRef =
        descriptor(MANIFEST_TYPE, manifestDigest, manifestBytes.length);
    manifestRef.put("annotations", Map.of("org.opencontainers.image.ref.name", refName));
    Map<String, Object> index = new LinkedHashMap<>();
    index.put("schemaVersion", 2);
    index.put("mediaType", "application/vnd.oci.image.index.v1+json");
    index.put("manifests", List.of(manifestRef));

    try {
      Files.createDirectories(target.toAbsolutePath().getParent());
      Path partial = target.resolveSibling(target.getFileName() + ".partial");
      try (TarWriter tar =
          new TarWriter(new BufferedOutputStream(Files.newOutputStream(partial), 1 << 16))) {
        tar.file("oci-layout", 0644, json(Map.of("imageLayoutVersion", "1.0.0")));
        tar.file("index.json", 0644, json(index));
        tar.directory("blobs", 0755, 0);
        tar.directory("blobs/sha256", 0755, 0);
        tar.file(blobPath(configDigest), 0644, configBytes);
        tar.file(blobPath(manifestDigest), 0644, manifestBytes);
        for (Layer layer : layers) {
          try (InputStream in = Files.newInputStream(layer.blob())) {
            tar.file(blobPath(layer.digest()), 0644, layer.size(), in);
          }
        }
      }
      Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the image " + target, e);
    }
    return manifestDigest;
  }

  List<Layer> layers() {
    return List.copyOf(layers);
  }

  private static String blobPath(String digest) {
    return "blobs/sha256/" + digest.substring("sha256:".length());
  }

  private static Map<String, Object> descriptor(String mediaType, String digest, long size) {
    Map<String, Object> descriptor = new LinkedHashMap<>();
    descriptor.put("mediaType", mediaType);
    descriptor.put("digest", digest);
    descriptor.put("size", size);
    return descriptor;
  }

  private static byte[] json(Object value) {
    return Jackson.MAPPER.writeValueAsBytes(value);
  }

  private static String digest(byte[] bytes) {
    return "sha256:" + HexFormat.of().formatHex(sha256().digest(bytes));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

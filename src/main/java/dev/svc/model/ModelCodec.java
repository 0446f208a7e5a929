package dev.svc.model;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The artifact encoding of a compiled model ({@code model.bin}): a magic number, a format version,
 * the model, and a CRC-32C of everything before it (format 4 on; formats 1 to 3 ended with a
 * SHA-256, whose provider set-up cost ~10 ms of every start: the checksum is there to catch damage,
 * not tampering, so the cheaper one does the job). Hand-written rather than a serialization library
 * so that it is deterministic (same project, same bytes), loads without reflection (start-up time),
 * and fails with a clear message on a newer or damaged file. {@code {{ env.X }}} placeholders stay
 * placeholders: the artifact never holds their values.
 */
public final class ModelCodec {
  private static final byte[] MAGIC = "SVCMODEL".getBytes(StandardCharsets.US_ASCII);

  /**
   * Bump on every change of the layout; older readers refuse newer files. 2 added {@code
   * server.metrics}, {@code server.audit} and inputs' {@code redact}; 3 added prompt message
   * content kinds (image, embedded resource); 4 ends with a CRC-32C instead of a SHA-256; 5 added
   * {@code server.limits} and {@code agents.push_notifications}; 6 added result caps ({@code
   * max_rows}, {@code max_bytes}: global and per tool) and tools' {@code read_only}, annotations
   * and declared output schema; 7 added inputs' {@code header}; 8 added tools' {@code confirm} and
   * {@code confirm_fallback}; 9 added tools' declared input schema ({@code input_schema}); 10 added
   * {@code server.auth}; 11 added tools' rate limit ({@code rate_limit}); 12 added {@code
   * agents.tasks} (shared task store, lease, retention), {@code server.auth.policy.introspection},
   * {@code server.limits.drain_delay}, a statement's database {@code session}, {@code
   * tools.rate_limit.store}, {@code tools.cache.store} and prompt arguments' {@code default}; 13
   * added {@code agents.tasks}' run limits; 14 added {@code scripts.fetch}. Older files still read
   * (with the added fields at their defaults, and prompt messages as text).
   */
  public static final int FORMAT_VERSION = 14;

  private static int checksumLength(int version) {
    return version >= 4 ? 4 : 32;
  }

  private ModelCodec() {}

  public static byte[] encode(Model model) {
    byte[] body = body(model, FORMAT_VERSION);
    byte[] checksum = checksum(body, FORMAT_VERSION);
    byte[] file = Arrays.copyOf(body, body.length + checksum.length);
    System.arraycopy(checksum, 0, file, body.length, checksum.length);
    return file;
  }

  /**
   * The magic number, {@code version} and the model in that format's layout, without the checksum
   * (older layouts leave out later fields: tests write older files with it).
   */
  static byte[] body(Model model, int version) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
    try {
      DataOutputStream out = new DataOutputStream(buffer);
      out.write(MAGIC);
      out.writeShort(version);
      new ModelWriter(out, version).model(model);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buffer.toByteArray();
  }

  /**
   * Reads a model written by {@link #encode}.
   *
   * @throws ArtifactException when the bytes are not a model, come from a newer svc, or are damaged
   */
  public static Model decode(byte[] bytes) {
    if (bytes.length < MAGIC.length + 2 + 4
        || !Arrays.equals(Arrays.copyOf(bytes, MAGIC.length), MAGIC)) {
      throw new ArtifactException("not an svc model file (it does not start with SVCMODEL)");
    }
    int version = ((bytes[MAGIC.length] & 0xff) << 8) | (bytes[MAGIC.length + 1] & 0xff);
    if (version > FORMAT_VERSION) {
      throw new ArtifactException(
          "the model was built by a newer svc (format "
              + version
              + ", this svc reads up to "
              + FORMAT_VERSION
              + "); upgrade svc or rebuild the project with this one");
    }
    if (version < 1) {
      throw new ArtifactException("the model file has an unknown format " + version);
    }
    int checksumLength = checksumLength(version);
    if (bytes.length < MAGIC.length + 2 + checksumLength) {
      throw new ArtifactException("the model file is damaged (it is truncated); rebuild it");
    }
    byte[] body = Arrays.copyOf(bytes, bytes.length - checksumLength);
    byte[] checksum = Arrays.copyOfRange(bytes, bytes.length - checksumLength, bytes.length);
    if (!Arrays.equals(checksum(body, version), checksum)) {
      throw new ArtifactException("the model file is damaged (checksum mismatch); rebuild it");
    }
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
      in.skipNBytes(MAGIC.length + 2);
      Model model = new ModelReader(in, version).model();
      if (in.available() != 0) {
        throw new ArtifactException("the model file has trailing bytes; rebuild it");
      }
      return model;
    } catch (EOFException | IllegalArgumentException e) {
      throw new ArtifactException("the model file is damaged (" + e.getMessage() + "); rebuild it");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The SHA-256 of {@code tool} in this format's layout: equal tools have equal digests, in every
   * process. The shared result cache keys results with it, so instances serving another definition
   * of a tool (a rolling deploy, a reload on one instance) never read each other's results.
   */
  public static byte[] digest(Tool tool) {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
    try {
      DataOutputStream out = new DataOutputStream(buffer);
      out.writeShort(FORMAT_VERSION);
      new ModelWriter(out, FORMAT_VERSION).tool(tool);
      out.flush();
      return MessageDigest.getInstance("SHA-256").digest(buffer.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] checksum(byte[] bytes, int version) {
    if (version >= 4) {
      CRC32C crc = new CRC32C();
      crc.update(bytes);
      int value = (int) crc.getValue();
      return new byte[] {
        (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value
      };
    }
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}

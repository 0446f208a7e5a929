package dev.svc.runtime;

import dev.svc.auth.HmacSha256;
import dev.svc.model.Execution;
import dev.svc.model.Statement;
import dev.svc.model.Tool;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * Continuation cursors (docs/results.md "Cursors"): an opaque string naming the page after a
 * truncated one. It holds the tool's name, the SHA-256 of the call's final inputs (canonical JSON,
 * without the cursor), the position (rows already returned) and an expiry, signed with HMAC-SHA256
 * under {@code SVC_CURSOR_SECRET}, or a random key of the process when that is not set (cursors
 * then end with the process). Nothing is stored: any instance with the same secret continues a
 * page.
 */
public final class PageCursors {
  /** The optional input of every tool that offers cursors. */
  public static final String INPUT = "cursor";

  /** The environment variable of the key that signs cursors. */
  public static final String SECRET = "SVC_CURSOR_SECRET";

  /** How long a cursor is accepted after the page that gave it. */
  public static final Duration LIFETIME = Duration.ofMinutes(15);

  private static final byte VERSION = 1;
  private static final int DIGEST = 32;
  private static final int MAC = 32;
  private static final int FIXED = 1 + 8 + 8 + DIGEST; // version, expiry, position, inputs
  private static final int MAX_TOOL_NAME = 128; // Shapes.TOOL_NAME
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** Made on first use: seeding a SecureRandom costs start-up time, most calls need no cursor. */
  private static final class ProcessKey {
    static final byte[] KEY = random();

    private static byte[] random() {
      byte[] key = new byte[32];
      new SecureRandom().nextBytes(key);
      return key;
    }
  }

  private final Optional<byte[]> secret;
  private final Clock clock;

  PageCursors(Optional<byte[]> secret, Clock clock) {
    this.secret = secret.map(byte[]::clone);
    this.clock = clock;
  }

  /** Cursors signed with {@code SVC_CURSOR_SECRET} when it is set, else with the process's key. */
  public static PageCursors create(Optional<String> configured) {
    return new PageCursors(
        configured.filter(s -> !s.isEmpty()).map(s -> s.getBytes(StandardCharsets.UTF_8)),
        Clock.systemUTC());
  }

  /**
   * Whether a tool offers cursors: a capped statement that reads rows in order of a result set
   * (SQL; MongoDB {@code find} and {@code aggregate}), with no output transform (whose result is
   * not the statement's rows), no input of its own named {@code cursor} (which wins), and no
   * declared {@code input_schema} (which is sent as written, so it cannot offer a {@code cursor}).
   */
  public static boolean offeredBy(Tool tool) {
    if (!(tool.execution() instanceof Execution.OnAdapter on)
        || tool.outputMapper().isPresent()
        || !tool.caps().any()
        || tool.input(INPUT).isPresent()
        || tool.inputSchema().isPresent()
        || !reads(tool)) {
      return false;
    }
    // instanceof, not a pattern switch: the start-up cache cannot hold a pattern switch's
    // generated class, and this runs at every start (docs/cli.md, "Start-up time")
    if (on.statement() instanceof Statement.Mongo mongo) {
      String command = DbTelemetry.operation(mongo);
      return command.equals("find") || command.equals("aggregate");
    }
    return on.statement() instanceof Statement.Sql; // Redis commands have no pages
  }

  /**
   * Whether the tool only reads: {@code read_only}, or a statement the compiler found to read (its
   * {@code readOnlyHint}). A next page runs the statement again, which only a read may do: an
   * {@code INSERT … RETURNING} cut at the cap must not insert again when its cursor comes back.
   */
  private static boolean reads(Tool tool) {
    return tool.readOnly() || tool.annotations().readOnly().orElse(false);
  }

  /** What a cursor a caller sent stands for. */
  sealed interface Opened {
    /**
     * @param position the rows already returned: where the next page starts
     */
    record Valid(long position) implements Opened {}

    /** The one-line message of why it cannot be used. */
    record Invalid(String message) implements Opened {}
  }

  /**
   * The cursor of the page starting at {@code position}.
   *
   * @param inputs the canonical JSON of the call's final inputs
   */
  String mint(String tool, String inputs, long position) {
    byte[] name = tool.getBytes(StandardCharsets.UTF_8);
    ByteBuffer payload = ByteBuffer.allocate(FIXED + name.length + MAC);
    payload.put(VERSION);
    payload.putLong(clock.instant().plus(LIFETIME).getEpochSecond());
    payload.putLong(position);
    payload.put(sha256(inputs));
    payload.put(name);
    payload.put(sign(payload.array(), payload.position()));
    return ENCODER.encodeToString(payload.array());
  }

  /** Opens a cursor sent to {@code tool} with these final inputs (canonical JSON). */
  Opened open(String cursor, String tool, String inputs) {
    byte[] bytes;
    try {
      bytes = cursor.length() > 512 ? null : DECODER.decode(cursor);
    } catch (IllegalArgumentException e) {
      bytes = null;
    }
    if (bytes == null
        || bytes.length < FIXED + 1 + MAC
        || bytes.length > FIXED + 4 * MAX_TOOL_NAME + MAC) {
      return invalid(
          "it is not a cursor of this server; pass the `next_cursor` of the previous page"
              + " unchanged, or call without `cursor` for the first page");
    }
    int signed = bytes.length - MAC;
    byte[] mac = Arrays.copyOfRange(bytes, signed, bytes.length);
    if (!MessageDigest.isEqual(mac, sign(bytes, signed)) || bytes[0] != VERSION) {
      return invalid(
          "it was altered, or made by a server that has restarted since or does not share its"
              + " SVC_CURSOR_SECRET; call again without `cursor` to start over");
    }
    ByteBuffer payload = ByteBuffer.wrap(bytes, 0, signed);
    payload.get();
    long expires = payload.getLong();
    long position = payload.getLong();
    byte[] digest = new byte[DIGEST];
    payload.get(digest);
    String owner = new String(bytes, FIXED, signed - FIXED, StandardCharsets.UTF_8);
    if (!owner.equals(tool)) {
      return invalid(
          "it belongs to tool `"
              + owner
              + "`; pass it to that tool, or call without `cursor` for the first page");
    }
    if (!MessageDigest.isEqual(digest, sha256(inputs))) {
      return invalid(
          "it was made for other inputs; call with the same inputs as the page that gave it, or"
              + " without `cursor` to start over");
    }
    if (clock.instant().getEpochSecond() > expires) {
      return invalid(
          "it expired (cursors last "
              + LIFETIME.toMinutes()
              + " minutes); call again without `cursor` to start over");
    }
    if (position < 0) {
      return invalid("it names no page; call without `cursor` to start over");
    }
    return new Opened.Valid(position);
  }

  private static Opened invalid(String why) {
    return new Opened.Invalid("invalid cursor: " + why);
  }

  private byte[] sign(byte[] bytes, int length) {
    return HmacSha256.sign(secret.orElse(ProcessKey.KEY), bytes, 0, length);
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}

package dev.svc.connector;

import java.io.IOException;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * Follows the framing of the RESP3 bytes a Redis connection reads, before Jedis parses them, to
 * refuse what Jedis would turn into an error of the JVM rather than of the call. Jedis makes a bulk
 * string's array at the length the server announces ({@code $2147483647} is {@code new
 * byte[2147483647]}), an aggregate's list at its announced count, and recurses once per level of
 * nesting: a server (or anything between svc and it) announcing a length past the ceiling, a count
 * of a billion or a million levels of arrays was an {@code OutOfMemoryError} or a {@code
 * StackOverflowError}, and the launcher ends the process on the first. Here:
 *
 * <ul>
 *   <li>a bulk string longer than what is left of the reply's ceiling, or an aggregate with more
 *       elements than could fit in it (each element counts at least 3 bytes, {@code _\r\n}, and its
 *       overhead), throws {@link ReplyTooLargeException} as soon as its header is read: the call
 *       gets the ceiling's refusal, as for a reply that passes it while it is read;
 *   <li>an aggregate nested deeper than {@value #MAX_DEPTH} levels, a big number of more than
 *       {@value #MAX_BIG_NUMBER_DIGITS} digits, an integer, double or boolean that is not one
 *       (Jedis's parse threw a {@code NumberFormatException} quoting it), a negative length other
 *       than {@code -1} (RESP's null), a length that is not a number, or a type Jedis does not read
 *       throws {@link Malformed}.
 * </ul>
 *
 * <p><b>What is counted</b> against the ceiling is the reply's bytes plus {@value
 * #ELEMENT_OVERHEAD_BYTES} for every value in it: a list of millions of one-byte strings is a few
 * MB of RESP but, as Jedis's arrays and then JSON nodes, ~100 bytes of heap each (5 million
 * elements under a 32 MiB ceiling of bytes were ~1 GiB of objects). The count starts again when a
 * reply ends (its last element read) and when a command is sent, so each reply of a subscription (a
 * message) is bounded on its own, and a simple string's line is bounded like a bulk string.
 *
 * <p>The bytes are only looked at, never changed or held: Jedis reads the same bytes afterwards.
 */
final class RespFrames {
  /**
   * The deepest nesting of aggregates read. Redis's own replies nest a few levels ({@code COMMAND
   * DOCS}, {@code XREAD}); only a script's reply can go deeper, and JSON results are written at
   * most 1000 levels deep anyway.
   */
  static final int MAX_DEPTH = 128;

  /**
   * The most digits of a big number ({@code (}) read. Jedis parses one with {@code new
   * BigInteger(text)}, whose cost grows with the square of the digits (a million took 20 s of CPU,
   * which no socket time-out stops); Redis itself sends none, only a script's reply could.
   */
  static final int MAX_BIG_NUMBER_DIGITS = 1000;

  /**
   * What one value of a reply is counted for on top of its bytes: about the least its JSON node and
   * its slot in an array take ({@code JsonFootprint}: 24 for the slot, 24 for a number, 48 for a
   * string), so what is refused here would have been refused by the call's account once read, only
   * later, after it was all in the heap.
   */
  static final int ELEMENT_OVERHEAD_BYTES = 64;

  private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]{1,19}");
  private static final Pattern DIGITS = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern DOUBLE =
      Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

  /** The reply is not RESP3 that Jedis can read safely; the connection is dropped. */
  static final class Malformed extends IOException {
    Malformed(String reason) {
      super("the server sent a reply that is not valid RESP: " + reason);
    }

    /** The message alone, as {@link ReplyTooLargeException#toString}. */
    @Override
    public String toString() {
      return getMessage();
    }
  }

  private enum State {
    TYPE,
    LINE,
    HEADER,
    BODY
  }

  /** The ceiling in bytes of the reply to the command last sent. */
  private final LongSupplier ceilingBytes;

  private long readSinceWrite; // bytes looked at since the last command was sent

  private State state = State.TYPE;
  private byte type;
  private long number; // the header's digits so far
  private int digits;
  private boolean negative;
  private boolean carriageReturn;
  private long bodyLeft; // bytes of a bulk string still to come, its CRLF included
  private byte lineType; // the type of the line being read
  private final StringBuilder scalar = new StringBuilder(); // a number's or boolean's line
  private final long[] elementsLeft = new long[MAX_DEPTH + 1]; // per open aggregate
  private int depth;

  RespFrames(LongSupplier ceilingBytes) {
    this.ceilingBytes = ceilingBytes;
  }

  /** A command was sent: the bytes after it are its reply, under its ceiling. */
  void wrote() {
    readSinceWrite = 0;
  }

  /** Counts {@code n} more bytes of the reply: past the ceiling, the reply is refused. */
  private void count(long n) throws ReplyTooLargeException {
    readSinceWrite += n;
    long ceiling = ceilingBytes.getAsLong();
    if (readSinceWrite > ceiling) {
      throw new ReplyTooLargeException(ceiling);
    }
  }

  /** Follows {@code n} bytes of {@code bytes} from {@code offset}, as they were read. */
  void read(byte[] bytes, int offset, int n) throws IOException {
    int at = offset;
    int end = offset + n;
    while (at < end) {
      if (state == State.BODY) {
        int skipped = (int) Math.min(bodyLeft, end - at);
        at += skipped;
        count(skipped);
        bodyLeft -= skipped;
        if (bodyLeft == 0) {
          done();
        }
        continue;
      }
      byte b = bytes[at++];
      count(1);
      if (state == State.TYPE) {
        count(ELEMENT_OVERHEAD_BYTES);
        start(b);
      } else if (state == State.LINE) {
        if (b == '\n') {
          if (lineType != '+' && lineType != '-') {
            checkScalar();
          }
          done();
        } else if (lineType != '+' && lineType != '-' && b != '\r') {
          if (scalar.length() > MAX_BIG_NUMBER_DIGITS + 1) { // a sign and the digits
            throw new Malformed(
                lineType == '('
                    ? "a big number of more than " + MAX_BIG_NUMBER_DIGITS + " digits"
                    : "a number of more than " + MAX_BIG_NUMBER_DIGITS + " characters");
          }
          scalar.append((char) (b & 0xff));
        }
      } else {
        header(b);
      }
    }
  }

  private void start(byte b) throws Malformed {
    switch (b) {
      case '+', '-', ':', ',', '(', '#', '_' -> {
        lineType = b;
        scalar.setLength(0);
        state = State.LINE;
      }
      case '$', '=', '*', '~', '>', '%' -> {
        type = b;
        number = 0;
        digits = 0;
        negative = false;
        carriageReturn = false;
        state = State.HEADER;
      }
      default ->
          throw new Malformed(
              "a reply of type "
                  + (b >= 0x21 && b < 0x7f ? "`" + (char) b + "`" : "byte " + (b & 0xff))
                  + ", which svc does not read");
    }
  }

  /**
   * Checks a line Jedis parses as a scalar before it does: an integer, a double, a boolean or a big
   * number that is not one was a {@code NumberFormatException} quoting the server's text.
   */
  private void checkScalar() throws Malformed {
    String text = scalar.toString();
    boolean valid =
        switch (lineType) {
          case ':' -> INTEGER.matcher(text).matches();
          case '(' -> DIGITS.matcher(text).matches() && !tooManyDigits(text);
          case '#' -> text.equals("t") || text.equals("f");
          case '_' -> text.isEmpty();
          default -> isDouble(text);
        };
    if (!valid) {
      throw new Malformed(
          switch (lineType) {
            case ':' -> "an integer that is not a 64-bit integer";
            case '(' ->
                tooManyDigits(text)
                    ? "a big number of more than " + MAX_BIG_NUMBER_DIGITS + " digits"
                    : "a big number that is not a sign and digits";
            case '#' -> "a boolean that is not t or f";
            case '_' -> "a null with text";
            default -> "a double that is not a number";
          });
    }
  }

  private static boolean tooManyDigits(String text) {
    boolean signed = !text.isEmpty() && (text.charAt(0) == '+' || text.charAt(0) == '-');
    return text.length() - (signed ? 1 : 0) > MAX_BIG_NUMBER_DIGITS;
  }

  private static boolean isDouble(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.equals("inf")
        || lower.equals("+inf")
        || lower.equals("-inf")
        || lower.equals("nan")) {
      return true;
    }
    return DOUBLE.matcher(text).matches();
  }

  private void header(byte b) throws IOException {
    if (carriageReturn) {
      if (b != '\n') {
        throw new Malformed("a length not ended by CRLF");
      }
      if (digits == 0) {
        throw new Malformed("a length without digits");
      }
      announced(negative ? -number : number);
      return;
    }
    if (b == '\r') {
      carriageReturn = true;
    } else if (b == '-' && digits == 0 && !negative) {
      negative = true;
    } else if (b >= '0' && b <= '9' && digits < 18) {
      number = number * 10 + (b - '0');
      digits++;
    } else {
      throw new Malformed("a length that is not a number of at most 18 digits");
    }
  }

  /** A header announced {@code length}: a bulk string's bytes or an aggregate's elements. */
  private void announced(long length) throws IOException {
    if (length == -1) { // RESP2's null bulk string or array
      done();
      return;
    }
    if (length < 0) {
      throw new Malformed("a negative length, " + length);
    }
    long ceiling = ceilingBytes.getAsLong();
    long left = ceiling - readSinceWrite;
    if (type == '$' || type == '=') {
      if (length > left) {
        throw new ReplyTooLargeException(ceiling);
      }
      bodyLeft = length + 2;
      state = State.BODY;
      return;
    }
    long elements = type == '%' ? length * 2 : length;
    if (elements > left / (3 + ELEMENT_OVERHEAD_BYTES)) {
      throw new ReplyTooLargeException(ceiling);
    }
    if (elements == 0) {
      done();
      return;
    }
    if (depth == MAX_DEPTH) {
      throw new Malformed("arrays nested deeper than " + MAX_DEPTH + " levels");
    }
    elementsLeft[++depth] = elements;
    state = State.TYPE;
  }

  /** One element ended: it may end the aggregates it closes, and the reply. */
  private void done() {
    state = State.TYPE;
    while (depth > 0 && --elementsLeft[depth] == 0) {
      depth--;
    }
    if (depth == 0) {
      readSinceWrite = 0; // the next reply (a subscription's next message) has a ceiling of its own
    }
  }
}

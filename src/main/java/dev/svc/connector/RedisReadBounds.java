package dev.svc.connector;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps a Redis command from reading a reply too large to hold. Jedis reads a reply whole, so a
 * command that answers with a whole key ({@code LRANGE k 0 -1} of a list that clients fill through
 * another tool, {@code HGETALL} of a large hash) would be read to its end before svc could cut it,
 * and a large enough one would fill the heap.
 *
 * <p>So, before a command is sent: a range read by index ({@code LRANGE}, {@code ZRANGE}, {@code
 * ZREVRANGE} from a start of 0 or more) gets its end moved to the call's window ({@code max_rows +
 * 1} elements), and a stream or score range without a count ({@code XRANGE}, {@code ZRANGEBYSCORE},
 * {@code ZRANGE … BYSCORE}, …) gets one: the answer is the same rows the window keeps, read without
 * the rest. A read that cannot be bounded so ({@code HGETALL}, {@code HKEYS}, {@code HVALS}, {@code
 * SMEMBERS}, {@code KEYS}, a range from the end, any read of a tool without {@code max_rows}) is
 * sized first with the key's length ({@code HLEN}, {@code SCARD}, {@code DBSIZE}, {@code LLEN},
 * {@code ZCARD}, {@code XLEN}: one more round trip), and refused past {@link #MAX_REPLY_ELEMENTS}.
 * A read of one value ({@code GET}, {@code GETDEL}, {@code GETEX}, {@code HGET}) is sized in bytes
 * first ({@code STRLEN}, {@code HSTRLEN}) and refused past the result ceiling: a 300 MB string was
 * read whole and ended the process. A count given as an argument ({@code SRANDMEMBER k n}, {@code
 * LPOP k n}, …) is refused past it without asking.
 */
final class RedisReadBounds {
  /** Elements one reply may hold: past it the command is refused before it is sent. */
  static final long MAX_REPLY_ELEMENTS = 100_000;

  private static final Set<String> INDEX_RANGES = Set.of("LRANGE", "ZRANGE", "ZREVRANGE");
  private static final Set<String> SCORE_RANGES =
      Set.of("ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZRANGEBYLEX", "ZREVRANGEBYLEX");
  private static final Set<String> STREAM_RANGES = Set.of("XRANGE", "XREVRANGE");
  private static final Set<String> COUNTED =
      Set.of(
          "SRANDMEMBER", "HRANDFIELD", "ZRANDMEMBER", "LPOP", "RPOP", "SPOP", "ZPOPMIN", "ZPOPMAX");
  private static final Set<String> SCANS = Set.of("SCAN", "HSCAN", "SSCAN", "ZSCAN");

  /**
   * How a command is sent: its arguments (perhaps bounded), and the command that sizes its reply
   * first, if any.
   *
   * @param probe the sizing command's arguments, empty when none is needed
   * @param range for a range by index sized by its key's length: its start and stop, to tell how
   *     many of the length it reads
   */
  record Plan(
      List<byte[]> arguments,
      Optional<List<byte[]>> probe,
      Optional<long[]> range,
      boolean probeCountsBytes) {
    Plan(List<byte[]> arguments, Optional<List<byte[]>> probe, Optional<long[]> range) {
      this(arguments, probe, range, false);
    }
  }

  private RedisReadBounds() {}

  /**
   * The plan for {@code arguments} (the command's name first) under a window that reads at most
   * {@code readLimit} elements ({@link Long#MAX_VALUE} for no cap).
   *
   * @throws StatementFailedException for a count argument past {@link #MAX_REPLY_ELEMENTS}
   */
  static Plan plan(List<byte[]> arguments, long readLimit) {
    String name = upper(arguments.getFirst());
    boolean capped = readLimit != Long.MAX_VALUE && readLimit <= MAX_REPLY_ELEMENTS;
    int size = arguments.size();
    if (COUNTED.contains(name) && size >= 3) {
      Optional<Long> count = number(arguments.get(2));
      if (count.isPresent() && Math.abs(count.get()) > MAX_REPLY_ELEMENTS) {
        throw tooMany(name, "asks for " + Math.abs(count.get()) + " elements");
      }
      return send(arguments);
    }
    if (SCANS.contains(name)) {
      for (int i = 1; i + 1 < size; i++) {
        Optional<Long> count = number(arguments.get(i + 1));
        if (upper(arguments.get(i)).equals("COUNT")
            && count.isPresent()
            && count.get() > MAX_REPLY_ELEMENTS) {
          throw tooMany(name, "asks for " + count.get() + " elements at once");
        }
      }
      return send(arguments);
    }
    if (INDEX_RANGES.contains(name) && size >= 4 && isIndexRange(name, arguments)) {
      Optional<Long> start = number(arguments.get(2));
      Optional<Long> stop = number(arguments.get(3));
      if (start.isEmpty() || stop.isEmpty()) {
        return send(arguments); // Redis answers the error
      }
      if (capped && start.get() >= 0 && start.get() <= Long.MAX_VALUE - readLimit) {
        long last = start.get() + readLimit - 1;
        if (stop.get() < 0 || stop.get() > last) {
          List<byte[]> bounded = new ArrayList<>(arguments);
          bounded.set(3, bytes(Long.toString(last)));
          return send(bounded);
        }
        return send(arguments);
      }
      if (start.get() >= 0 && stop.get() >= 0 && stop.get() - start.get() < MAX_REPLY_ELEMENTS) {
        return send(arguments); // small by its own bounds
      }
      String length = name.equals("LRANGE") ? "LLEN" : "ZCARD";
      return new Plan(
          arguments,
          Optional.of(List.of(bytes(length), arguments.get(1))),
          Optional.of(new long[] {start.get(), stop.get()}));
    }
    if ((SCORE_RANGES.contains(name) || name.equals("ZRANGE")) && size >= 4) {
      if (has(arguments, "LIMIT", 4)) {
        return send(arguments);
      }
      if (capped) {
        List<byte[]> bounded = new ArrayList<>(arguments);
        bounded.add(bytes("LIMIT"));
        bounded.add(bytes("0"));
        bounded.add(bytes(Long.toString(readLimit)));
        return send(bounded);
      }
      return probe(arguments, "ZCARD", arguments.get(1));
    }
    if (STREAM_RANGES.contains(name) && size >= 4) {
      if (has(arguments, "COUNT", 4)) {
        return send(arguments);
      }
      if (capped) {
        List<byte[]> bounded = new ArrayList<>(arguments);
        bounded.add(bytes("COUNT"));
        bounded.add(bytes(Long.toString(readLimit)));
        return send(bounded);
      }
      return probe(arguments, "XLEN", arguments.get(1));
    }
    return switch (name) {
      case "HGETALL", "HKEYS", "HVALS" ->
          size == 2 ? probe(arguments, "HLEN", arguments.get(1)) : send(arguments);
      case "SMEMBERS" -> size == 2 ? probe(arguments, "SCARD", arguments.get(1)) : send(arguments);
      case "KEYS" -> new Plan(arguments, Optional.of(List.of(bytes("DBSIZE"))), Optional.empty());
      case "GET", "GETDEL", "GETEX" ->
          size >= 2
              ? sized(arguments, List.of(bytes("STRLEN"), arguments.get(1)))
              : send(arguments);
      case "HGET" ->
          size == 3
              ? sized(arguments, List.of(bytes("HSTRLEN"), arguments.get(1), arguments.get(2)))
              : send(arguments);
      default -> send(arguments);
    };
  }

  /**
   * Checks the probe's answer: the elements the command would read.
   *
   * @throws StatementFailedException past {@link #MAX_REPLY_ELEMENTS}
   */
  static void check(Plan plan, Object probeReply) {
    check(plan, probeReply, Long.MAX_VALUE);
  }

  /**
   * Checks the probe's answer: the elements the command would read, or for a value sized in bytes
   * ({@code STRLEN}, {@code HSTRLEN}) its length against {@code ceilingBytes}, the ceiling of one
   * result.
   *
   * @throws StatementFailedException past {@link #MAX_REPLY_ELEMENTS}
   * @throws ResultRefusedException for a value longer than {@code ceilingBytes}
   */
  static void check(Plan plan, Object probeReply, long ceilingBytes) {
    if (!(probeReply instanceof Long length)) {
      return; // not a length (a wrong type answers an error to the command itself)
    }
    if (plan.probeCountsBytes()) {
      if (length > ceilingBytes) {
        throw ResultRefusedException.ceiling(ceilingBytes);
      }
      return;
    }
    long elements = length;
    if (plan.range().isPresent()) {
      long[] range = plan.range().get();
      long start = range[0] < 0 ? Math.max(0, length + range[0]) : range[0];
      long stop = range[1] < 0 ? length + range[1] : Math.min(range[1], length - 1);
      elements = Math.max(0, stop - start + 1);
    }
    if (elements > MAX_REPLY_ELEMENTS) {
      String name = upper(plan.arguments().getFirst());
      throw tooMany(name, "would read " + elements + " elements");
    }
  }

  private static StatementFailedException tooMany(String name, String what) {
    return new StatementFailedException(
        "`"
            + name
            + "` "
            + what
            + ", more than the "
            + MAX_REPLY_ELEMENTS
            + " svc reads from one reply: read the key in parts: HSCAN, SSCAN or SCAN with COUNT,"
            + " or a bounded LRANGE, ZRANGE or XRANGE (a tool's max_rows bounds those)",
        false,
        null);
  }

  /** ZRANGE reads by index unless it says BYSCORE or BYLEX. */
  private static boolean isIndexRange(String name, List<byte[]> arguments) {
    return !name.equals("ZRANGE") || (!has(arguments, "BYSCORE", 4) && !has(arguments, "BYLEX", 4));
  }

  private static boolean has(List<byte[]> arguments, String word, int from) {
    for (int i = from; i < arguments.size(); i++) {
      if (upper(arguments.get(i)).equals(word)) {
        return true;
      }
    }
    return false;
  }

  private static Plan send(List<byte[]> arguments) {
    return new Plan(arguments, Optional.empty(), Optional.empty());
  }

  private static Plan probe(List<byte[]> arguments, String command, byte[] key) {
    return new Plan(arguments, Optional.of(List.of(bytes(command), key)), Optional.empty());
  }

  /** A command answering one value, sized in bytes first: Jedis would read it whole. */
  private static Plan sized(List<byte[]> arguments, List<byte[]> probe) {
    return new Plan(arguments, Optional.of(probe), Optional.empty(), true);
  }

  private static Optional<Long> number(byte[] argument) {
    try {
      return Optional.of(Long.parseLong(new String(argument, StandardCharsets.UTF_8).strip()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static String upper(byte[] argument) {
    return new String(argument, StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}

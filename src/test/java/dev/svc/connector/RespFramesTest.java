package dev.svc.connector;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** RESP's framing followed byte by byte, whatever the reads' boundaries. */
class RespFramesTest {
  private static final long CEILING = 64 * 1024;

  /** Feeds {@code reply} in reads of {@code chunk} bytes. */
  private static void feed(RespFrames frames, String reply, int chunk) throws IOException {
    byte[] bytes = reply.getBytes(StandardCharsets.UTF_8);
    for (int at = 0; at < bytes.length; at += chunk) {
      frames.read(bytes, at, Math.min(chunk, bytes.length - at));
    }
  }

  @Test
  void wellFormedRepliesPassWhateverTheReadBoundaries() {
    String replies =
        "+OK\r\n-ERR no\r\n:42\r\n,1.5\r\n(123456789012345678901234567890\r\n#t\r\n_\r\n"
            + "$5\r\nhe\r\nl\r\n$-1\r\n*-1\r\n*0\r\n%0\r\n=8\r\ntxt:abcd\r\n"
            + "*3\r\n$1\r\na\r\n*2\r\n:1\r\n%1\r\n+k\r\n~1\r\n_\r\n>1\r\n+push\r\n"
            + "$"
            + (CEILING - 100)
            + "\r\n"
            + "x".repeat((int) CEILING - 100)
            + "\r\n";
    for (int chunk : new int[] {1, 2, 3, 7, 8192, Integer.MAX_VALUE / 2}) {
      RespFrames frames = new RespFrames(() -> CEILING);
      assertThatCode(
              () -> {
                feed(frames, replies.substring(0, replies.indexOf("$" + (CEILING - 100))), chunk);
                frames.wrote(); // the big value is the reply to a command of its own
                feed(frames, replies.substring(replies.indexOf("$" + (CEILING - 100))), chunk);
              })
          .as("reads of %d bytes", chunk)
          .doesNotThrowAnyException();
    }
  }

  @Test
  void aLengthPastWhatIsLeftOfTheCeilingIsRefusedAtItsHeader() throws IOException {
    RespFrames frames = new RespFrames(() -> CEILING);
    feed(frames, "*2\r\n$60000\r\n" + "x".repeat(60_000) + "\r\n", 1000);
    assertThatThrownBy(() -> feed(frames, "$6000\r\n", 1))
        .isInstanceOf(ReplyTooLargeException.class)
        .hasMessage("the reply passed 65536 bytes");
  }

  @Test
  void manyTinyElementsAreCountedWithTheirOverheadNotOnlyTheirBytes() throws IOException {
    // 1,000 one-byte strings: 7 KB of RESP, ~100 KB of heap once read
    assertThatThrownBy(() -> feed(new RespFrames(() -> CEILING), "*1000\r\n", 100))
        .isInstanceOf(ReplyTooLargeException.class);
    // announced in small arrays, each under the ceiling: refused as they arrive
    String inner = "*100\r\n" + ":1\r\n".repeat(100);
    assertThatThrownBy(() -> feed(new RespFrames(() -> CEILING), "*10\r\n" + inner.repeat(10), 100))
        .isInstanceOf(ReplyTooLargeException.class)
        .hasMessage("the reply passed 65536 bytes");
    assertThatCode(() -> feed(new RespFrames(() -> CEILING), "*5\r\n" + inner.repeat(5), 100))
        .doesNotThrowAnyException();
  }

  @Test
  void eachReplyIsCountedOnItsOwnSoASubscriptionIsBoundedPerMessage() {
    String message = "*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$40000\r\n" + "x".repeat(40_000) + "\r\n";
    assertThatCode(() -> feed(new RespFrames(() -> CEILING), message.repeat(5), 8192))
        .doesNotThrowAnyException();
  }

  @Test
  void aSimpleStringIsBoundedLikeABulkString() {
    assertThatThrownBy(() -> feed(new RespFrames(() -> CEILING), "+" + "x".repeat(70_000), 8192))
        .isInstanceOf(ReplyTooLargeException.class);
  }

  @Test
  void malformedHeadersAndDeepNestingAreRefused() {
    for (String reply :
        new String[] {
          "(12a\r\n",
          "(--1\r\n",
          "$-2\r\n",
          "*1x\r\n",
          "$\r\n",
          "$1234567890123456789\r\n",
          "!3\r\nerr\r\n"
        }) {
      assertThatThrownBy(() -> feed(new RespFrames(() -> CEILING), reply, 1))
          .as(reply.strip())
          .isInstanceOf(RespFrames.Malformed.class)
          .hasMessageStartingWith("the server sent a reply that is not valid RESP: ");
    }
    String widest = "(-" + "9".repeat(RespFrames.MAX_BIG_NUMBER_DIGITS) + "\r\n";
    assertThatCode(() -> feed(new RespFrames(() -> CEILING), widest + widest, 100))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> feed(new RespFrames(() -> CEILING), "(9" + widest.substring(2), 100))
        .isInstanceOf(RespFrames.Malformed.class)
        .hasMessageEndingWith("a big number of more than 1000 digits");
    String deepest = "*1\r\n".repeat(RespFrames.MAX_DEPTH) + ":1\r\n";
    assertThatCode(() -> feed(new RespFrames(() -> CEILING), deepest + deepest, 5))
        .doesNotThrowAnyException();
    assertThatThrownBy(() -> feed(new RespFrames(() -> CEILING), "*1\r\n" + deepest, 5))
        .isInstanceOf(RespFrames.Malformed.class)
        .hasMessageEndingWith("arrays nested deeper than 128 levels");
  }
}

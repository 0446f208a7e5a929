package dev.svc.protocol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.json.Json;
import dev.svc.protocol.EventSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * How many sessions one instance keeps: a client that opens sessions without end (an {@code
 * initialize} costs it one request) must not fill the heap, and no client loses its session to it.
 */
class McpSessionsTest {
  private final McpSessions sessions = new McpSessions(new SessionTokens(new byte[32]));

  /** A stream a client keeps open, recording what it was sent. */
  private static final class OpenStream implements EventSink {
    final List<JsonNode> sent = new ArrayList<>();

    @Override
    public synchronized boolean send(JsonNode message) {
      sent.add(message);
      return true;
    }

    @Override
    public boolean data(JsonNode message) {
      return send(message);
    }

    @Override
    public boolean comment(String text) {
      return true;
    }

    @Override
    public boolean isOpen() {
      return true;
    }
  }

  private void openMany(int count) {
    for (int i = 0; i < count; i++) {
      sessions.find(sessions.begin("2025-11-25"));
    }
  }

  @Test
  void beginningASessionKeepsNothingUntilItsIdIsUsed() {
    for (int i = 0; i < 50_000; i++) {
      sessions.begin("2025-11-25");
    }

    assertThat(sessions.all()).isEmpty();
  }

  @Test
  void theLiveSessionsAreBoundedAndAnEvictedOneComesBackFromItsId() {
    ClientCapabilities elicitation =
        ClientCapabilities.of(
            Json.MAPPER.readValue(
                "{\"elicitation\":{}}", tools.jackson.databind.node.ObjectNode.class));
    String first = sessions.begin("2025-11-25", elicitation, Optional.empty());
    assertThat(sessions.find(first)).isPresent();

    openMany(McpSessions.MAX_LIVE + 5_000);

    assertThat(sessions.all().size()).isLessThanOrEqualTo(McpSessions.MAX_LIVE);
    Optional<McpSession> again = sessions.find(first);
    assertThat(again).as("a signed id stays valid after its state was let go").isPresent();
    assertThat(again.get().protocolVersion()).isEqualTo("2025-11-25");
    assertThat(again.get().client()).isEqualTo(elicitation);
  }

  @Test
  void sessionsSubscribedToLongUrisAreBoundedByWhatTheirSubscriptionsHold() {
    List<String> uris = new ArrayList<>();
    for (int i = 0; i < ResourceMethods.MAX_SUBSCRIPTIONS; i++) {
      uris.add("test://template/" + "x".repeat(2_000) + i + "/data");
    }
    for (int i = 0; i < 2_000; i++) {
      McpSession session = sessions.find(sessions.begin("2025-11-25")).orElseThrow();
      uris.forEach(uri -> session.subscribe(uri, ResourceMethods.MAX_SUBSCRIPTIONS));
    }

    long held = sessions.all().stream().mapToLong(McpSession::subscribedBytes).sum();
    // before: every session kept, 2,000 x 100 x ~2 KB = 420 MB of a heap of 512 MB at most
    assertThat(held)
        .isLessThanOrEqualTo((long) McpSessions.MAX_LIVE * McpSession.SESSION_BYTES)
        .isPositive();
    McpSession last = sessions.all().iterator().next();
    last.unsubscribe(uris.getFirst());
    last.unsubscribe(uris.getFirst());
    assertThat(last.subscribedBytes()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void aSessionWithAnOpenStreamIsKeptAndStillNotified() {
    McpSession listening = sessions.find(sessions.begin("2025-11-25")).orElseThrow();
    OpenStream stream = new OpenStream();
    sessions.openStream(listening, stream);

    openMany(McpSessions.MAX_LIVE + 5_000);

    assertThat(sessions.find(listening.id())).containsSame(listening);
    assertThat(sessions.all()).contains(listening);
    sessions.all().forEach(s -> s.notify(Json.NODES.objectNode().put("method", "ping")));
    assertThat(stream.sent).hasSize(1);
  }

  @Test
  void anEndedSessionStaysEndedWithItsStreamOpen() {
    McpSession session = sessions.find(sessions.begin("2025-11-25")).orElseThrow();
    sessions.openStream(session, new OpenStream());

    sessions.end(session);

    assertThat(sessions.find(session.id())).isEmpty();
    assertThat(sessions.all()).doesNotContain(session);
  }

  @Test
  void anEndedSessionStaysEndedUnderAnotherSpellingOfItsId() {
    McpSession session = sessions.find(sessions.begin("2025-11-25")).orElseThrow();
    sessions.end(session);

    // the same signature bytes in base64 written otherwise: padded, or with the unused low bits of
    // the last character set (a decoder ignores both)
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char last = session.id().charAt(session.id().length() - 1);
    char lowBitsSet = alphabet.charAt(alphabet.indexOf(last) | 0xF);
    String stem = session.id().substring(0, session.id().length() - 1);
    assertThat(lowBitsSet).isNotEqualTo(last);
    assertThat(sessions.find(stem + lowBitsSet)).isEmpty();
    assertThat(sessions.find(session.id() + "==")).isEmpty();
    assertThat(sessions.all()).isEmpty();
  }
}

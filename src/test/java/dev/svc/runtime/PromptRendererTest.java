package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.Model;
import dev.svc.model.Prompt;
import dev.svc.testing.ProjectFixture;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PromptRendererTest {
  @TempDir Path dir;

  private Model model;
  private Prompt triage;
  private PromptRenderer renderer;

  @BeforeEach
  void compile() {
    model =
        ProjectFixture.model(
            dir,
            """
            == .svc
            name: triage
            == app/prompts/triage.terse
            arguments:
              ticket: {required: true}
              tone: {default: neutral}
              lines: {default: 3}
              audience: {}
            messages:
              - role: user
                text: "Classify {{ ticket }} in a {{ tone }} tone, in {{ lines }} lines, for {{ audience }}."
              - role: user
                resource: "docs://tones/{{ tone }}"
            == app/resources/tones/config.terse
            uri_template: docs://tones/{tone}
            text_template: Write in a {{ tone }} tone.
            """);
    triage = model.prompt("triage").orElseThrow();
    renderer = new PromptRenderer(new ResourceContents(model, dir), dir);
  }

  @Test
  void anArgumentTheCallerDidNotSendTakesItsDefaultInTextAndInResourceUris() {
    assertThat(renderer.render(triage, Map.of("ticket", "#42")))
        .extracting(PromptRenderer.Rendered::content)
        .containsExactly(
            new PromptRenderer.Text(
                "Classify #42 in a neutral tone, in 3 lines, for {{ audience }}."),
            new PromptRenderer.Resource(
                new ResourceContents.Text(
                    "docs://tones/neutral",
                    "text/plain; charset=utf-8",
                    "Write in a neutral tone.")));
  }

  @Test
  void aSentValueWinsOverTheDefaultEvenWhenItIsEmpty() {
    List<PromptRenderer.Rendered> rendered =
        renderer.render(
            triage, Map.of("ticket", "#42", "tone", "formal", "lines", "", "audience", "ops"));
    assertThat(rendered.getFirst().content())
        .isEqualTo(new PromptRenderer.Text("Classify #42 in a formal tone, in  lines, for ops."));
  }

  @Test
  void onlyAbsentArgumentsWithADefaultAreAdded() {
    assertThat(PromptRenderer.withDefaults(triage, Map.of("ticket", "#42")))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("ticket", "#42", "tone", "neutral", "lines", "3"));
  }

  @Test
  void aLongArgumentPutInManyTimesIsRefusedBeforeTheTextIsMade() {
    long ceiling = 4 * 1024 * 1024;
    String value = "x".repeat((int) (ceiling / 4) + 1);
    String template = "{{ a }} ".repeat(5);
    assertThatThrownBy(() -> PromptRenderer.substitute(template, Map.of("a", value), ceiling))
        .isInstanceOf(PromptRenderer.TooLargeException.class)
        .hasMessageContaining("longer than the 4 MiB svc serves as one result");
    assertThat(PromptRenderer.substitute("{{ a }} {{ a }}", Map.of("a", value), ceiling))
        .hasSize(value.length() * 2 + 1);
  }

  @Test
  void theRoomIsSharedByAllMessagesOfOnePrompt() {
    long ceiling = 4 * 1024 * 1024;
    String ticket = "t".repeat((int) (ceiling / 2) + 1); // fits one message, not two
    Prompt twice =
        new Prompt(
            triage.name(),
            triage.title(),
            triage.description(),
            triage.arguments(),
            List.of(
                new Prompt.Message(Prompt.Role.USER, new Prompt.Text("{{ ticket }}")),
                new Prompt.Message(Prompt.Role.USER, new Prompt.Text("again: {{ ticket }}"))));
    PromptRenderer small = new PromptRenderer(new ResourceContents(model, dir), dir, ceiling);
    assertThatThrownBy(() -> small.render(twice, Map.of("ticket", ticket)))
        .isInstanceOf(PromptRenderer.TooLargeException.class);
  }

  @Test
  void anImageLargerThanOneResultIsRefusedUnread() throws Exception {
    Path image = dir.resolve("app/prompts/huge.png");
    // 700 MiB of nothing (a sparse file): more than a 512 MiB heap holds
    try (RandomAccessFile file = new RandomAccessFile(image.toFile(), "rw")) {
      file.setLength(700L << 20);
    }
    Prompt withImage =
        new Prompt(
            "shows",
            triage.title(),
            triage.description(),
            List.of(),
            List.of(
                new Prompt.Message(
                    Prompt.Role.USER, new Prompt.ImageFile("app/prompts/huge.png", "image/png"))));
    PromptRenderer small =
        new PromptRenderer(new ResourceContents(model, dir), dir, 32L * 1024 * 1024);

    assertThatThrownBy(() -> small.render(withImage, Map.of()))
        .isInstanceOf(ResourceContents.TooLargeException.class)
        .hasMessage(
            "prompt image huge.png holds 700 MiB, more than the 32 MiB svc serves as one result;"
                + " make the image smaller");
  }
}

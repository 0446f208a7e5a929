package dev.svc.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.model.Model;
import dev.svc.model.Prompt;
import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PromptRendererTest {
  @TempDir Path dir;

  private Prompt triage;
  private PromptRenderer renderer;

  @BeforeEach
  void compile() {
    Model model =
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
}

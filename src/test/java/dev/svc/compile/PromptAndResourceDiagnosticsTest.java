package dev.svc.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.svc.testing.ProjectFixture;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Rules of prompts, resources and resource templates, each pinned to its exact output. */
class PromptAndResourceDiagnosticsTest {
  @TempDir Path dir;

  static Stream<Arguments> prompts() {
    return Stream.of(
        argumentSet(
            "a prompt without messages is rejected",
            """
            == app/prompts/review.terse
            description: Reviews code.
            """,
            """
            app/prompts/review.terse:1:1: error[missing-field]: `messages` is missing from the prompt
              hint: add `messages:` (messages in order; at least one)
            1 error, 0 warnings
            """),
        argumentSet(
            "a prompt with an empty message list is rejected",
            """
            == app/prompts/review.terse
            messages: []
            """,
            """
            app/prompts/review.terse:1:11: error[missing-messages]: prompt `review` has an empty `messages` list
              hint: add at least one message with `role` and `text`
            1 error, 0 warnings
            """),
        argumentSet(
            "a message without role is rejected",
            """
            == app/prompts/review.terse
            messages:
              - text: Review this.
            """,
            """
            app/prompts/review.terse:2:5: error[missing-field]: `role` is missing from the 1st entry of `messages`
              hint: add `role:` (`user`, `assistant` or `system`)
            1 error, 0 warnings
            """),
        argumentSet(
            "a message without content is rejected",
            """
            == app/prompts/review.terse
            messages:
              - role: user
            """,
            """
            app/prompts/review.terse:2:5: error[missing-content]: a message of prompt `review` has no content
              hint: add one of `text: …`, `image: <path>` or `resource: <uri>`
            1 error, 0 warnings
            """),
        argumentSet(
            "a message with both text and an image is rejected",
            """
            == app/prompts/review.terse
            messages:
              - role: user
                text: Look.
                image: chart.png
            == app/prompts/chart.png
            not really a png
            """,
            """
            app/prompts/review.terse:4:12: error[conflicting-content]: a message of prompt `review` sets both `text` and `image`; keep one
              hint: a message carries one item: write one message per item
            1 error, 0 warnings
            """),
        argumentSet(
            "a message with text, an image and a resource names all three",
            """
            == app/prompts/review.terse
            messages:
              - role: user
                text: Look.
                image: chart.png
                resource: docs://guide
            """,
            """
            app/prompts/review.terse:4:12: error[conflicting-content]: a message of prompt `review` sets `text`, `image` and `resource`; keep one
              hint: a message carries one item: write one message per item
            1 error, 0 warnings
            """),
        argumentSet(
            "an image file that does not exist is rejected; paths start at the prompt's folder",
            """
            == app/prompts/review.terse
            messages:
              - role: user
                image: chart.png
            == chart.png
            at the project root, not beside the prompt
            """,
            """
            app/prompts/review.terse:3:12: error[missing-file]: the image file `chart.png` does not exist
              hint: paths start at app/prompts/
            1 error, 0 warnings
            """),
        argumentSet(
            "an inline prompt's image path starts at the project directory",
            """
            == .svc
            name: shop
            prompts:
              - name: look
                messages: [{role: user, image: images/chart.png}]
            """,
            """
            .svc:4:36: error[missing-file]: the image file `images/chart.png` does not exist
              hint: paths start at the project directory
            1 error, 0 warnings
            """),
        argumentSet(
            "an image whose type the extension does not tell needs a mime_type",
            """
            == app/prompts/review.terse
            messages:
              - role: user
                image: chart.bin
            == app/prompts/chart.bin
            bytes
            """,
            """
            app/prompts/review.terse:3:12: error[missing-mime-type]: the type of the image `chart.bin` cannot be told from its extension
              hint: add `mime_type:` with the image's MIME type, e.g. `mime_type: image/png`
            1 error, 0 warnings
            """),
        argumentSet(
            "a mime_type on a message that is not an image is rejected",
            """
            == app/prompts/review.terse
            messages:
              - role: user
                text: Look.
                mime_type: text/markdown
            """,
            """
            app/prompts/review.terse:4:16: error[wrong-mode-field]: `mime_type` applies to `image` messages only
              hint: remove it; an embedded resource has the MIME type of the resource
            1 error, 0 warnings
            """),
        argumentSet(
            "a resource URI that names no resource of the project is rejected with a did-you-mean",
            """
            == app/prompts/review.terse
            messages:
              - role: user
                resource: docs://gide
            == app/resources/guide/config.terse
            uri: docs://guide
            text: The guide.
            """,
            """
            app/prompts/review.terse:3:15: error[unknown-resource]: no resource or resource template of the project matches `docs://gide`
              hint: did you mean `docs://guide`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a resource file whose YAML is broken is reported once, not again in the prompt naming it",
            """
            == app/prompts/review.terse
            messages:
              - role: user
                resource: docs://guide
            == app/resources/guide/config.terse
            uri: docs://guide
            text: "The guide.
            """,
            """
            app/resources/guide/config.terse:2:7: error[yaml-syntax]: invalid YAML: found unexpected end of stream (while scanning a quoted scalar)
            1 error, 0 warnings
            """),
        argumentSet(
            "a resource URI matching a template is accepted; one with placeholders is checked when served",
            """
            == app/prompts/review.terse
            arguments:
              uri: {required: true}
            messages:
              - role: user
                resource: docs://pages/intro
              - role: user
                resource: "{{ uri }}"
              - role: user
                resource: "docs://pages/{{ page }}"
            == app/resources/pages/config.terse
            uri_template: docs://pages/{page}
            text_template: Page {{ page }}.
            """,
            """
            app/prompts/review.terse:9:15: warning[undeclared-argument]: `{{ page }}` names no argument of prompt `review`; it stays as written unless a caller sends it
              hint: declare it under `arguments:`
            0 errors, 1 warning
            """),
        argumentSet(
            "an unsupported role is rejected with a did-you-mean",
            """
            == app/prompts/review.terse
            messages:
              - role: sytem
                text: You review code.
            """,
            """
            app/prompts/review.terse:2:11: error[invalid-role]: `role` is `sytem`, which is not supported
              hint: did you mean `system`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a role nothing like a supported one lists the supported roles",
            """
            == app/prompts/review.terse
            messages:
              - role: robot
                text: Beep.
            """,
            """
            app/prompts/review.terse:2:11: error[invalid-role]: `role` is `robot`, which is not supported
              hint: use one of: user, assistant, system
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown key in a message is an error with a did-you-mean",
            """
            == app/prompts/review.terse
            messages:
              - role: user
                txt: Review this.
            """,
            """
            app/prompts/review.terse:2:5: error[missing-content]: a message of prompt `review` has no content
              hint: add one of `text: …`, `image: <path>` or `resource: <uri>`
            app/prompts/review.terse:3:5: error[unknown-key]: unknown key `txt` in the 1st entry of `messages`
              hint: did you mean `text`?
            2 errors, 0 warnings
            """),
        argumentSet(
            "two prompts with one name are rejected, also across sub-directories",
            """
            == app/prompts/review.terse
            messages: [{role: user, text: Review.}]
            == app/prompts/team/review.terse
            messages: [{role: user, text: Review as a team.}]
            """,
            """
            app/prompts/team/review.terse:1:1: error[duplicate-prompt]: prompt `review` is defined twice
              hint: the first definition is at app/prompts/review.terse:1:1; rename or remove one
            1 error, 0 warnings
            """),
        argumentSet(
            "an inline prompt and a prompt file with one name are rejected",
            """
            == .svc
            name: shop
            prompts:
              - name: review
                messages: [{role: user, text: Review.}]
            == app/prompts/review.terse
            messages: [{role: user, text: Review again.}]
            """,
            """
            app/prompts/review.terse:1:1: error[duplicate-prompt]: prompt `review` is defined twice
              hint: the first definition is at .svc:3:11; rename or remove one
            1 error, 0 warnings
            """),
        argumentSet(
            "an inline prompt needs a name",
            """
            == .svc
            name: shop
            prompts:
              - messages: [{role: user, text: Review.}]
            """,
            """
            .svc:3:5: error[missing-field]: an inline prompt needs a `name`
              hint: add `name: <prompt name>`
            1 error, 0 warnings
            """),
        argumentSet(
            "a placeholder naming no argument is a warning",
            """
            == app/prompts/review.terse
            arguments:
              code: {required: true}
            messages:
              - role: user
                text: Review {{ cod }}.
            """,
            """
            app/prompts/review.terse:5:11: warning[undeclared-argument]: `{{ cod }}` names no argument of prompt `review`; it stays as written unless a caller sends it
              hint: declare it under `arguments:`
            0 errors, 1 warning
            """),
        argumentSet(
            "an optional argument without a default warns once per message where it is used",
            """
            == app/prompts/review.terse
            arguments:
              code: {required: true}
              tone: {completion: [formal, friendly]}
            messages:
              - role: user
                text: "Review {{ code }} in a {{ tone }} tone; keep it {{tone}}."
              - role: user
                resource: "docs://tones/{{ tone }}"
            == app/resources/tones/config.terse
            uri_template: docs://tones/{tone}
            text_template: Write in a {{ tone }} tone.
            """,
            """
            app/prompts/review.terse:6:11: warning[optional-argument-without-default]: `{{ tone }}` uses the optional argument `tone` of prompt `review`, which has no `default`
              hint: give it a `default:` or make it `required: true`; otherwise, when the client sends no value, the text `{{ tone }}` reaches the model as written
            app/prompts/review.terse:8:15: warning[optional-argument-without-default]: `{{ tone }}` uses the optional argument `tone` of prompt `review`, which has no `default`
              hint: give it a `default:` or make it `required: true`; otherwise, when the client sends no value, the resource URI keeps `{{ tone }}` as written
            0 errors, 2 warnings
            """),
        argumentSet(
            "an optional argument with a default, even an empty or numeric one, is not warned about",
            """
            == app/prompts/review.terse
            arguments:
              tone: {default: neutral}
              extra: {default: ""}
              lines: {default: 20}
              strict: {default: true}
            messages:
              - role: user
                text: "Review in a {{ tone }} tone in {{ lines }} lines (strict: {{ strict }}).{{ extra }}"
            """,
            ""),
        argumentSet(
            "a default on a required argument is rejected",
            """
            == app/prompts/review.terse
            arguments:
              code:
                required: true
                default: "print(1)"
            messages:
              - role: user
                text: Review {{ code }}.
            """,
            """
            app/prompts/review.terse:4:14: error[default-on-required]: argument `code` is required and has a `default`
              hint: a required argument always has a value: drop `default` or make it optional
            1 error, 0 warnings
            """),
        argumentSet(
            "a default that is not a scalar is rejected, without a warning that follows from it",
            """
            == app/prompts/review.terse
            arguments:
              tone: {default: [formal]}
            messages:
              - role: user
                text: Review in a {{ tone }} tone.
            """,
            """
            app/prompts/review.terse:2:19: error[invalid-type]: `default` must be a string, found a list
            1 error, 0 warnings
            """),
        argumentSet(
            "a resource template argument has no default",
            """
            == app/prompts/review.terse
            messages:
              - role: user
                text: Review.
            == app/resources/pages/config.terse
            uri_template: docs://pages/{page}
            text_template: Page {{ page }}.
            arguments:
              page: {default: intro}
            """,
            """
            app/resources/pages/config.terse:4:10: error[unknown-key]: unknown key `default` in the argument `page`
              hint: known keys: title, description, required, completion
            1 error, 0 warnings
            """),
        argumentSet(
            "an env placeholder in a prompt is served as written, so it warns",
            """
            == app/prompts/review.terse
            messages:
              - role: system
                text: "You work for {{ env.COMPANY }}."
            """,
            """
            app/prompts/review.terse:3:11: warning[env-not-substituted]: `{{ env.… }}` is not substituted in `text`; it is served as written
              hint: env placeholders work in connection_string, adapter options, auth policy values and model options
            0 errors, 1 warning
            """));
  }

  static Stream<Arguments> resources() {
    return Stream.of(
        argumentSet(
            "a resource with both `uri` and `uri_template` is rejected",
            """
            == app/resources/readme/config.terse
            uri: docs://readme
            uri_template: docs://{name}
            text: Hello.
            """,
            """
            app/resources/readme/config.terse:2:15: error[conflicting-uri]: a resource has either `uri` (concrete) or `uri_template` (template), not both
              hint: split it into two definitions
            1 error, 0 warnings
            """),
        argumentSet(
            "a resource with neither `uri` nor `uri_template` is rejected",
            """
            == app/resources/readme/config.terse
            text: Hello.
            """,
            """
            app/resources/readme/config.terse:1:1: error[missing-uri]: the resource has neither `uri` nor `uri_template`
              hint: add `uri: docs://readme` for a concrete resource, or `uri_template: docs://{name}` for a template
            1 error, 0 warnings
            """),
        argumentSet(
            "a concrete resource without `text` or `file` is rejected",
            """
            == app/resources/readme/config.terse
            uri: docs://readme
            """,
            """
            app/resources/readme/config.terse:1:1: error[missing-content]: the resource has no content
              hint: add `text: …` or `file: <path>`
            1 error, 0 warnings
            """),
        argumentSet(
            "a concrete resource with both `text` and `file` is rejected",
            """
            == app/resources/readme/config.terse
            uri: docs://readme
            text: Hello.
            file: README.md
            == app/resources/readme/README.md
            # Hello
            """,
            """
            app/resources/readme/config.terse:3:7: error[conflicting-content]: the resource sets both `text` and `file`; keep one
            1 error, 0 warnings
            """),
        argumentSet(
            "a concrete resource whose file does not exist is rejected",
            """
            == app/resources/readme/config.terse
            uri: docs://readme
            file: README.md
            """,
            """
            app/resources/readme/config.terse:2:7: error[missing-file]: the content file `README.md` does not exist
              hint: paths start at app/resources/readme/
            1 error, 0 warnings
            """),
        argumentSet(
            "a template without `text_template` or `file_template` is rejected",
            """
            == app/resources/docs/config.terse
            uri_template: docs://{name}
            """,
            """
            app/resources/docs/config.terse:1:1: error[missing-content]: the resource template has no content
              hint: add `text_template: …` or `file_template: <path>`
            1 error, 0 warnings
            """),
        argumentSet(
            "template fields on a concrete resource are rejected",
            """
            == app/resources/readme/config.terse
            uri: docs://readme
            text: Hello.
            text_template: Hello {{ name }}.
            arguments:
              name: {required: true}
            """,
            """
            app/resources/readme/config.terse:3:16: error[wrong-mode-field]: `text_template` does not apply to a concrete resource
              hint: use `text`
            app/resources/readme/config.terse:5:3: error[wrong-mode-field]: `arguments` belong to resource templates; this resource has a fixed `uri`
              hint: remove them, or use `uri_template` with `{argument}` variables
            2 errors, 0 warnings
            """),
        argumentSet(
            "concrete fields on a template are rejected",
            """
            == app/resources/docs/config.terse
            uri_template: docs://{name}
            text_template: Doc {{ name }}.
            file: doc.md
            """,
            """
            app/resources/docs/config.terse:3:7: error[wrong-mode-field]: `file` does not apply to a resource template
              hint: use `file_template`
            1 error, 0 warnings
            """),
        argumentSet(
            "an invalid URI template is rejected",
            """
            == app/resources/docs/config.terse
            uri_template: docs://{name
            text_template: Doc.
            """,
            """
            app/resources/docs/config.terse:1:15: error[invalid-uri-template]: `docs://{name` is not a valid URI template: `{` at position 8 is never closed
              hint: variables are written `{name}` (RFC 6570)
            1 error, 0 warnings
            """),
        argumentSet(
            "a template file whose path has no placeholder must exist",
            """
            == app/resources/docs/config.terse
            uri_template: docs://{name}
            file_template: doc.md
            """,
            """
            app/resources/docs/config.terse:2:16: error[missing-file]: the template file `doc.md` does not exist
              hint: paths start at app/resources/docs/
            1 error, 0 warnings
            """),
        argumentSet(
            "a template placeholder naming neither a variable nor an argument is a warning",
            """
            == app/resources/docs/config.terse
            uri_template: docs://{name}
            text_template: Doc {{ nme }}.
            """,
            """
            app/resources/docs/config.terse:2:16: warning[undeclared-argument]: `{{ nme }}` is neither a variable of the URI template nor a declared argument
              hint: variables of the URI template are filled in; others stay as written
            0 errors, 1 warning
            """),
        argumentSet(
            "two resources with one URI are rejected, inline or discovered",
            """
            == .svc
            name: shop
            resources:
              - uri: docs://readme
                text: Inline.
            == app/resources/readme/config.terse
            uri: docs://readme
            text: Discovered.
            """,
            """
            app/resources/readme/config.terse:1:6: error[duplicate-resource]: resource URI `docs://readme` is defined twice
              hint: the first definition is at .svc:3:10; rename or remove one
            1 error, 0 warnings
            """),
        argumentSet(
            "two templates with one URI template are rejected",
            """
            == .svc
            name: shop
            resource_templates:
              - uri_template: docs://{name}
                text_template: Inline {{ name }}.
            == app/resources/docs/config.terse
            uri_template: docs://{name}
            text_template: Discovered {{ name }}.
            """,
            """
            app/resources/docs/config.terse:1:15: error[duplicate-template]: resource template `docs://{name}` is defined twice
              hint: the first definition is at .svc:3:19; rename or remove one
            1 error, 0 warnings
            """));
  }

  @ParameterizedTest
  @MethodSource("prompts")
  void promptRulesReportExactlyWhatTheySay(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }

  @ParameterizedTest
  @MethodSource("resources")
  void resourceRulesReportExactlyWhatTheySay(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}

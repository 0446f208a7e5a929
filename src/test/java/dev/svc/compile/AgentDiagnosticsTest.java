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

/** Rules of agent files: instruction, model provider and tool access, each pinned to its output. */
class AgentDiagnosticsTest {
  @TempDir Path dir;

  /** A tool named {@code hello}, for access lists to name. */
  static final String HELLO =
      """
      == app/tools/hello/config.terse
      description: Says hello.
      == app/tools/hello/handler.ts
      export default () => "hello";
      """;

  static Stream<Arguments> rules() {
    return Stream.of(
        argumentSet(
            "an agent without instruction is rejected",
            """
            == app/agents/helper/config.terse
            model: {provider: gemini, model: gemini-2.5-flash}
            """,
            """
            app/agents/helper/config.terse:1:1: error[missing-field]: `instruction` is missing from the agent
              hint: add `instruction:` (system instruction of every model call)
            1 error, 0 warnings
            """),
        argumentSet(
            "a model API key written in the file is a warning",
            """
            == app/agents/helper/config.terse
            instruction: You help.
            model:
              provider: openai
              model: gpt-4o-mini
              options:
                api_key: sk-proj-abc
            """,
            """
            app/agents/helper/config.terse:6:14: warning[literal-secret]: model option `api_key` is written in the file: it would be in the repository and in the built artifact
              hint: write `api_key: "{{ env.MODEL_API_KEY }}"` and set the variable where svc runs (or in .env, kept out of version control)
            0 errors, 1 warning
            """),
        argumentSet(
            "an agent without model is rejected",
            """
            == app/agents/helper/config.terse
            instruction: You help.
            """,
            """
            app/agents/helper/config.terse:1:1: error[missing-field]: `model` is missing from the agent
              hint: add `model:` (provider and model)
            1 error, 0 warnings
            """),
        argumentSet(
            "a model without provider and model name is rejected",
            """
            == app/agents/helper/config.terse
            instruction: You help.
            model:
              options: {temperature: 0.2}
            """,
            """
            app/agents/helper/config.terse:3:3: error[missing-field]: `model` is missing from the agent `model`
              hint: add `model:` (provider-specific model name)
            app/agents/helper/config.terse:3:3: error[missing-field]: `provider` is missing from the agent `model`
              hint: add `provider:` (`gemini` (`google_ai_studio`), `vertex` (`vertex_ai`) or `openai_compatible` (`openai`))
            2 errors, 0 warnings
            """),
        argumentSet(
            "an unknown provider is rejected with a did-you-mean",
            """
            == app/agents/helper/config.terse
            instruction: You help.
            model: {provider: gemeni, model: gemini-2.5-flash}
            """,
            """
            app/agents/helper/config.terse:2:19: error[unknown-provider]: model provider `gemeni` is not supported
              hint: did you mean `gemini`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a provider nothing like a supported one lists the supported ones",
            """
            == app/agents/helper/config.terse
            instruction: You help.
            model: {provider: llama, model: llama3}
            """,
            """
            app/agents/helper/config.terse:2:19: error[unknown-provider]: model provider `llama` is not supported
              hint: use one of: gemini, google_ai_studio, vertex, vertex_ai, openai_compatible, openai
            1 error, 0 warnings
            """),
        argumentSet(
            "provider names are normalised, so `OpenAI-Compatible` is valid",
            """
            == app/agents/helper/config.terse
            instruction: You help.
            model: {provider: OpenAI-Compatible, model: gpt-4o-mini}
            """,
            ""),
        argumentSet(
            "`allow_list` without tools is rejected",
            HELLO
                + """
                == app/agents/helper/config.terse
                instruction: You help.
                model: {provider: gemini, model: gemini-2.5-flash}
                tool_access:
                  mode: allow_list
                """,
            """
            app/agents/helper/config.terse:4:9: error[missing-tool-list]: mode `allow_list` needs a non-empty `tools` list
              hint: add `tools: [tool_a, tool_b]`, or use `allow_none`
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown tool in `allow_list` is rejected with a did-you-mean",
            HELLO
                + """
                == app/agents/helper/config.terse
                instruction: You help.
                model: {provider: gemini, model: gemini-2.5-flash}
                tool_access:
                  mode: allow_list
                  tools: [hello, helo]
                """,
            """
            app/agents/helper/config.terse:5:18: error[unknown-tool]: no tool is named `helo`
              hint: did you mean `hello`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a tool whose YAML is broken is reported once, not again as an unknown tool",
            """
            == app/tools/lookup/config.terse
            description: Looks up.
            inputs: {key: {type: string, description: "Key}}
            == app/tools/lookup/handler.ts
            export default () => 1;
            == app/agents/helper/config.terse
            instruction: You help.
            model: {provider: gemini, model: gemini-2.5-flash}
            tool_access:
              mode: allow_list
              tools: [lookup]
            """,
            """
            app/tools/lookup/config.terse:2:43: error[yaml-syntax]: invalid YAML: found unexpected end of stream (while scanning a quoted scalar)
            1 error, 0 warnings
            """),
        argumentSet(
            "an unknown tool access mode is rejected with a did-you-mean",
            """
            == app/agents/helper/config.terse
            instruction: You help.
            model: {provider: gemini, model: gemini-2.5-flash}
            tool_access:
              mode: allow-all
            """,
            """
            app/agents/helper/config.terse:4:9: error[invalid-tool-access]: `mode` is `allow-all`, which is not supported
              hint: did you mean `allow_all`?
            1 error, 0 warnings
            """),
        argumentSet(
            "a tool list with `allow_all` is ignored, with a warning",
            HELLO
                + """
                == app/agents/helper/config.terse
                instruction: You help.
                model: {provider: gemini, model: gemini-2.5-flash}
                tool_access:
                  mode: allow_all
                  tools: [hello]
                """,
            """
            app/agents/helper/config.terse:5:10: warning[ignored-tool-list]: `tools` is ignored because the mode is `allow_all`
              hint: use `mode: allow_list` to limit access to these tools
            0 errors, 1 warning
            """),
        argumentSet(
            "an agent directory name that is not a valid agent name needs a `name` field",
            """
            == app/agents/Helper/config.terse
            instruction: You help.
            model: {provider: gemini, model: gemini-2.5-flash}
            """,
            """
            app/agents/Helper/config.terse:1:1: error[invalid-name]: the agent has no `name`, and its default name `Helper` does not match ^[a-z][a-z0-9_-]*$
              hint: add a `name:` field, or rename it (start with a lower-case letter; use a-z, 0-9, `_` and `-`)
            1 error, 0 warnings
            """),
        argumentSet(
            "a written agent name must be lower-case",
            """
            == app/agents/helper/config.terse
            name: Helper
            instruction: You help.
            model: {provider: gemini, model: gemini-2.5-flash}
            """,
            """
            app/agents/helper/config.terse:1:7: error[invalid-name]: `name` is `Helper`; it must match ^[a-z][a-z0-9_-]*$
              hint: start with a lower-case letter; use a-z, 0-9, `_` and `-`
            1 error, 0 warnings
            """),
        argumentSet(
            "two agents with one name are rejected",
            """
            == app/agents/helper/config.terse
            instruction: You help.
            model: {provider: gemini, model: gemini-2.5-flash}
            == app/agents/helper2/config.terse
            name: helper
            instruction: You help too.
            model: {provider: gemini, model: gemini-2.5-flash}
            """,
            """
            app/agents/helper2/config.terse:1:7: error[duplicate-agent]: agent `helper` is defined twice
              hint: the first definition is at app/agents/helper/config.terse:1:1; rename or remove one
            1 error, 0 warnings
            """),
        argumentSet(
            "an env placeholder in an instruction is served as written, so it warns",
            """
            == app/agents/helper/config.terse
            instruction: "You work for {{ env.COMPANY }}."
            model: {provider: gemini, model: gemini-2.5-flash}
            """,
            """
            app/agents/helper/config.terse:1:14: warning[env-not-substituted]: `{{ env.… }}` is not substituted in `instruction`; it is served as written
              hint: env placeholders work in connection_string, adapter options, auth policy values and model options
            0 errors, 1 warning
            """),
        argumentSet(
            "a malformed env placeholder in a model option is rejected",
            """
            == app/agents/helper/config.terse
            instruction: You help.
            model:
              provider: gemini
              model: gemini-2.5-flash
              options: {api_key: "{{ env.google key }}"}
            """,
            """
            app/agents/helper/config.terse:5:22: error[invalid-placeholder]: `{{ env.google key }}` is not a valid environment placeholder
              hint: write `{{ env.NAME }}` where NAME has letters, digits and `_`
            1 error, 0 warnings
            """),
        argumentSet(
            "agent loop options must be positive whole numbers",
            """
            == app/agents/helper/config.terse
            instruction: You help.
            model:
              provider: gemini
              model: gemini-2.5-flash
              options:
                max_steps: 0
                timeout: soon
                temperature: warm
            """,
            """
            app/agents/helper/config.terse:6:16: error[invalid-option]: model option `max_steps` must be a positive whole number, not `0`
              hint: model calls per task, e.g. `max_steps: 12` (default 8)
            app/agents/helper/config.terse:7:14: error[invalid-option]: model option `timeout` must be a positive whole number, not `soon`
              hint: seconds one model call may take, e.g. `timeout: 60`
            2 errors, 0 warnings
            """));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void reportsExactlyWhatTheRuleSays(String files, String expected) {
    assertThat(ProjectFixture.report(dir, files)).isEqualTo(expected);
  }
}

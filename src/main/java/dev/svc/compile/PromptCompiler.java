package dev.svc.compile;

import dev.svc.definition.ArgumentDefinition;
import dev.svc.definition.Located;
import dev.svc.definition.PromptDefinition;
import dev.svc.definition.PromptDefinition.MessageDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.model.Argument;
import dev.svc.model.Prompt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Compiles prompts: messages in order, roles, and placeholders against declared arguments. */
final class PromptCompiler {
  /** A prompt placeholder: letters, digits and underscore only. */
  static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_]+)\\s*\\}\\}");

  private final Diagnostics diagnostics;
  private final EnvStrings env;

  PromptCompiler(Diagnostics diagnostics, EnvStrings env) {
    this.diagnostics = diagnostics;
    this.env = env;
  }

  /** Compiles a prompt whose name has been settled. */
  Optional<Prompt> compile(PromptDefinition prompt, String name) {
    int errorsBefore = diagnostics.errorCount();
    if (prompt.messages().isPresent() && prompt.messages().get().value().isEmpty()) {
      diagnostics.error(
          "missing-messages",
          prompt.messages().get().origin(),
          "prompt `" + name + "` has an empty `messages` list",
          "add at least one message with `role` and `text`");
    }
    List<Argument> arguments = arguments(prompt.arguments());
    List<String> argumentNames = arguments.stream().map(Argument::name).toList();
    List<Prompt.Message> messages = new ArrayList<>();
    for (MessageDefinition message : prompt.messages().map(Located::value).orElse(List.of())) {
      Optional<Prompt.Role> role = message.role().flatMap(r -> Prompt.Role.parse(r.value()));
      if (role.isEmpty() || message.text().isEmpty()) {
        continue; // reported by the shape check
      }
      Located<String> text = message.text().get();
      env.notSubstituted(message.text(), "text");
      Matcher m = PLACEHOLDER.matcher(text.value());
      while (m.find()) {
        if (!argumentNames.contains(m.group(1))) {
          diagnostics.warning(
              "undeclared-argument",
              text.origin(),
              "`"
                  + m.group()
                  + "` names no argument of prompt `"
                  + name
                  + "`; it stays as written unless a caller sends it",
              "declare it under `arguments:`");
        }
      }
      messages.add(new Prompt.Message(role.get(), text.value()));
    }
    if (diagnostics.errorCount() > errorsBefore || messages.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Prompt(
            name,
            prompt.title().map(Located::value),
            prompt.description().map(Located::value),
            arguments,
            messages));
  }

  static List<Argument> arguments(List<ArgumentDefinition> definitions) {
    return definitions.stream()
        .map(a ->
            new Argument(
                a.name().value(),
                a.title().map(Located::value),
                a.description().map(Located::value),
                a.required().map(Located::value).orElse(false),
                a.completion().stream().map(Located::value).toList()))
        .toList();
  }
}

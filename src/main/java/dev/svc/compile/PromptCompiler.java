package dev.svc.compile;

import dev.svc.definition.ArgumentDefinition;
import dev.svc.definition.Located;
import dev.svc.definition.PromptDefinition;
import dev.svc.definition.PromptDefinition.MessageDefinition;
import dev.svc.definition.ResourceDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Suggestions;
import dev.svc.model.Argument;
import dev.svc.model.MimeTypes;
import dev.svc.model.Prompt;
import dev.svc.model.UriTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles prompts: messages in order, roles, each message's one content item (text, image or
 * resource), and placeholders against declared arguments.
 */
final class PromptCompiler {
  /** A prompt placeholder: letters, digits and underscore only. */
  static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_]+)\\s*\\}\\}");

  private final Diagnostics diagnostics;
  private final EnvStrings env;
  private final Path projectDirectory;
  private final TreeSet<String> resourceUris = new TreeSet<>();
  private final List<UriTemplate> uriTemplates = new ArrayList<>();
  private final boolean resourceFileUnreadable;

  /**
   * @param resources the project's resource definitions, as written: a message's resource URI is
   *     checked against them, so a resource with its own error does not also fail the prompt
   * @param resourceFileUnreadable whether a resource file could not be parsed: its URI is unknown,
   *     so an unmatched URI is not reported (the file's YAML error is the one to fix first)
   */
  PromptCompiler(
      Diagnostics diagnostics,
      EnvStrings env,
      Path projectDirectory,
      List<ResourceDefinition> resources,
      boolean resourceFileUnreadable) {
    this.resourceFileUnreadable = resourceFileUnreadable;
    this.diagnostics = diagnostics;
    this.env = env;
    this.projectDirectory = projectDirectory;
    for (ResourceDefinition resource : resources) {
      resource.uri().ifPresent(uri -> resourceUris.add(uri.value()));
      resource
          .uriTemplate()
          .ifPresent(t -> {
            try {
              uriTemplates.add(UriTemplate.parse(t.value()));
            } catch (IllegalArgumentException e) {
              // reported as invalid-uri-template by the resource compiler
            }
          });
    }
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
    checkDefaults(prompt.arguments());
    List<Argument> arguments = arguments(prompt.arguments());
    List<String> argumentNames = arguments.stream().map(Argument::name).toList();
    // a default written but refused (a list, a map) is that error's business, not this warning's
    List<String> mayStayAsWritten =
        prompt.arguments().stream()
            .filter(a -> !a.required().map(Located::value).orElse(false) && !a.defaultWritten())
            .map(a -> a.name().value())
            .toList();
    List<Prompt.Message> messages = new ArrayList<>();
    for (MessageDefinition message : prompt.messages().map(Located::value).orElse(List.of())) {
      Optional<Prompt.Role> role = message.role().flatMap(r -> Prompt.Role.parse(r.value()));
      Optional<Prompt.Content> content =
          content(message, prompt, name, argumentNames, mayStayAsWritten);
      if (role.isPresent() && content.isPresent()) {
        messages.add(new Prompt.Message(role.get(), content.get()));
      } // a missing or unsupported role is reported by the shape check
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

  /**
   * The message's one content item; empty (and reported) when it has none, several or a bad one.
   */
  private Optional<Prompt.Content> content(
      MessageDefinition message,
      PromptDefinition prompt,
      String name,
      List<String> argumentNames,
      List<String> mayStayAsWritten) {
    Map<String, Located<String>> set = new LinkedHashMap<>();
    message.text().ifPresent(t -> set.put("text", t));
    message.image().ifPresent(i -> set.put("image", i));
    message.resource().ifPresent(r -> set.put("resource", r));
    if (set.isEmpty()) {
      diagnostics.error(
          "missing-content",
          message.origin(),
          "a message of prompt `" + name + "` has no content",
          "add one of `text: …`, `image: <path>` or `resource: <uri>`");
      return Optional.empty();
    }
    if (set.size() > 1) {
      List<String> fields = set.keySet().stream().map(f -> "`" + f + "`").toList();
      diagnostics.error(
          "conflicting-content",
          List.copyOf(set.values()).get(1).origin(),
          "a message of prompt `"
              + name
              + "` sets "
              + (fields.size() == 2
                  ? "both " + fields.get(0) + " and " + fields.get(1)
                  : String.join(", ", fields.subList(0, fields.size() - 1))
                      + " and "
                      + fields.getLast())
              + "; keep one",
          "a message carries one item: write one message per item");
      return Optional.empty();
    }
    if (message.image().isEmpty() && message.mimeType().isPresent()) {
      diagnostics.error(
          "wrong-mode-field",
          message.mimeType().get().origin(),
          "`mime_type` applies to `image` messages only",
          "remove it; an embedded resource has the MIME type of the resource");
      return Optional.empty();
    }
    if (message.text().isPresent()) {
      env.notSubstituted(message.text(), "text");
      checkPlaceholders(
          message.text().get(),
          name,
          argumentNames,
          mayStayAsWritten,
          "the text %s reaches the model as written");
      return Optional.of(new Prompt.Text(message.text().get().value()));
    }
    if (message.image().isPresent()) {
      return image(message.image().get(), message.mimeType(), prompt.directory());
    }
    return resource(message.resource().get(), name, argumentNames, mayStayAsWritten);
  }

  private Optional<Prompt.Content> image(
      Located<String> image, Optional<Located<String>> mimeType, String directory) {
    Optional<Path> resolved =
        FilePaths.resolve(projectDirectory.resolve(directory), image, diagnostics);
    if (resolved.isEmpty()) {
      return Optional.empty();
    }
    Path path = resolved.get();
    if (!Files.isRegularFile(path)) {
      diagnostics.error(
          "missing-file",
          image.origin(),
          "the image file `" + image.value() + "` does not exist",
          "paths start at " + (directory.isEmpty() ? "the project directory" : directory + "/"));
      return Optional.empty();
    }
    if (!FilePaths.servable(projectDirectory, path, image, diagnostics)) {
      return Optional.empty();
    }
    Optional<String> type =
        mimeType.map(Located::value).or(() -> MimeTypes.ofFileName(image.value()));
    if (type.isEmpty()) {
      diagnostics.error(
          "missing-mime-type",
          image.origin(),
          "the type of the image `" + image.value() + "` cannot be told from its extension",
          "add `mime_type:` with the image's MIME type, e.g. `mime_type: image/png`");
      return Optional.empty();
    }
    return Optional.of(
        new Prompt.ImageFile(
            projectDirectory.relativize(path).toString().replace('\\', '/'), type.get()));
  }

  private Optional<Prompt.Content> resource(
      Located<String> uri, String name, List<String> argumentNames, List<String> mayStayAsWritten) {
    env.notSubstituted(Optional.of(uri), "resource");
    boolean placeholders =
        checkPlaceholders(
            uri, name, argumentNames, mayStayAsWritten, "the resource URI keeps %s as written");
    if (!placeholders
        && !resourceUris.contains(uri.value())
        && uriTemplates.stream().noneMatch(t -> t.match(uri.value()).isPresent())) {
      if (resourceFileUnreadable) {
        return Optional.empty(); // the compilation fails on that file's YAML error
      }
      diagnostics.error(
          "unknown-resource",
          uri.origin(),
          "no resource or resource template of the project matches `" + uri.value() + "`",
          Suggestions.didYouMean(uri.value(), resourceUris)
              .orElse("the URI must be a resource's `uri` or match a `uri_template`"));
      return Optional.empty();
    }
    return Optional.of(new Prompt.ResourceRef(uri.value()));
  }

  /**
   * Warns about placeholders naming no argument, and (once per argument) about placeholders of
   * optional arguments without a {@code default}, which stay as written when the caller sends no
   * value; true when {@code text} has any placeholder.
   *
   * @param asWritten what happens to such a placeholder, with {@code %s} for it
   */
  private boolean checkPlaceholders(
      Located<String> text,
      String name,
      List<String> argumentNames,
      List<String> mayStayAsWritten,
      String asWritten) {
    Matcher m = PLACEHOLDER.matcher(text.value());
    boolean any = false;
    Set<String> warned = new HashSet<>();
    while (m.find()) {
      any = true;
      if (mayStayAsWritten.contains(m.group(1)) && warned.add(m.group(1))) {
        diagnostics.warning(
            "optional-argument-without-default",
            text.origin(),
            "`"
                + m.group()
                + "` uses the optional argument `"
                + m.group(1)
                + "` of prompt `"
                + name
                + "`, which has no `default`",
            "give it a `default:` or make it `required: true`; otherwise, when the client sends"
                + " no value, "
                + asWritten.formatted("`" + m.group() + "`"));
      }
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
    return any;
  }

  /** A required argument always has a value, so a {@code default} there is a mistake. */
  private void checkDefaults(List<ArgumentDefinition> definitions) {
    for (ArgumentDefinition a : definitions) {
      if (a.defaultValue().isPresent() && a.required().map(Located::value).orElse(false)) {
        diagnostics.error(
            "default-on-required",
            a.defaultValue().get().origin(),
            "argument `" + a.name().value() + "` is required and has a `default`",
            "a required argument always has a value: drop `default` or make it optional");
      }
    }
  }

  static List<Argument> arguments(List<ArgumentDefinition> definitions) {
    return definitions.stream()
        .map(a ->
            new Argument(
                a.name().value(),
                a.title().map(Located::value),
                a.description().map(Located::value),
                a.required().map(Located::value).orElse(false),
                a.completion().stream().map(Located::value).toList(),
                a.defaultValue().map(Located::value)))
        .toList();
  }
}

package dev.svc.compile;

import dev.svc.definition.ContentTestsDefinition;
import dev.svc.definition.ContentTestsDefinition.CaseDefinition;
import dev.svc.definition.ContentTestsDefinition.ExpectDefinition;
import dev.svc.definition.Located;
import dev.svc.definition.NamedValue;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Suggestions;
import dev.svc.json.Json;
import dev.svc.model.Argument;
import dev.svc.model.Prompt;
import dev.svc.model.Resource;
import dev.svc.model.ResourceTemplate;
import dev.svc.model.UriTemplate;
import dev.svc.project.YamlNode;
import dev.svc.suite.Expectation;
import dev.svc.suite.JsonPath;
import dev.svc.suite.PromptCase;
import dev.svc.suite.PromptSuite;
import dev.svc.suite.ResourceCase;
import dev.svc.suite.ResourceSuite;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Compiles the tests of a prompt or of a resource or template: checks the arguments against what
 * the prompt or template declares, expands templates to the URIs read, and parses each JSON path
 * and pattern. Every problem is reported where it is written.
 */
final class ContentTestCompiler {
  private final Diagnostics diagnostics;

  ContentTestCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  Optional<PromptSuite> prompt(ContentTestsDefinition definition, Prompt prompt) {
    int errors = diagnostics.errorCount();
    List<PromptCase> cases = new ArrayList<>();
    List<String> declared = prompt.arguments().stream().map(Argument::name).toList();
    for (CaseDefinition written : definition.cases()) {
      if (written.expect().isEmpty()) {
        continue; // missing-field reported by the shape check
      }
      ExpectDefinition expect = written.expect().get();
      Map<String, String> arguments =
          arguments(written, declared, "prompt `" + prompt.name() + "`");
      if (expect.error().isEmpty()) {
        for (Argument argument : prompt.arguments()) {
          if (argument.required() && !arguments.containsKey(argument.name())) {
            diagnostics.error(
                "invalid-test-input",
                written.name().origin(),
                "case `"
                    + written.name().value()
                    + "` leaves out `"
                    + argument.name()
                    + "`, a required argument of prompt `"
                    + prompt.name()
                    + "`",
                "add it under `arguments`, or expect the refusal with `error:`");
          }
        }
      }
      List<Expectation> expectations = new ArrayList<>();
      expect
          .messages()
          .ifPresent(node ->
              expectations.add(
                  new Expectation.Result(
                      "messages",
                      new YamlJson(diagnostics, "messages", "invalid-expectation").json(node))));
      jsonPaths(expect.jsonPath(), expectations);
      error(expect.error(), expectations);
      requireOne(expectations, expect, written, "`messages`, `json_path` or `error`");
      cases.add(
          new PromptCase(
              prompt.name(),
              written.name().value(),
              written.name().origin(),
              arguments,
              expectations));
    }
    return diagnostics.errorCount() > errors
        ? Optional.empty()
        : Optional.of(new PromptSuite(prompt.name(), definition.file(), cases));
  }

  /**
   * @param resource the resource the tests are beside, or empty for a template
   * @param template the template they are beside, or empty for a resource
   */
  Optional<ResourceSuite> resource(
      ContentTestsDefinition definition,
      Optional<Resource> resource,
      Optional<ResourceTemplate> template) {
    int errors = diagnostics.errorCount();
    List<ResourceCase> cases = new ArrayList<>();
    Optional<UriTemplate> parsed = template.map(t -> UriTemplate.parse(t.uriTemplate()));
    for (CaseDefinition written : definition.cases()) {
      if (written.expect().isEmpty()) {
        continue; // missing-field reported by the shape check
      }
      ExpectDefinition expect = written.expect().get();
      String uri;
      if (parsed.isPresent()) {
        Map<String, String> arguments =
            arguments(
                written,
                parsed.get().variables(),
                "template `" + template.orElseThrow().uriTemplate() + "`");
        uri = written.uri().map(Located::value).orElseGet(() -> parsed.get().expand(arguments));
        if (written.uri().isEmpty() && written.arguments().isEmpty()) {
          diagnostics.error(
              "invalid-test-input",
              written.name().origin(),
              "case `"
                  + written.name().value()
                  + "` gives a template neither `arguments` nor a `uri`",
              "add `arguments:` with its variables ("
                  + String.join(", ", parsed.get().variables())
                  + ")");
        }
      } else {
        for (NamedValue argument : written.arguments()) {
          diagnostics.error(
              "invalid-test-input",
              argument.key().origin(),
              "a resource has no arguments; only a template does",
              "remove `arguments`, or give a `uri` to read");
        }
        uri = written.uri().map(Located::value).orElse(resource.orElseThrow().uri());
      }
      List<Expectation> expectations = new ArrayList<>();
      expect.uri().ifPresent(u -> expectations.add(field("uri", "$.uri", u.value())));
      expect
          .mimeType()
          .ifPresent(m -> expectations.add(field("mime_type", "$.mime_type", m.value())));
      expect.text().ifPresent(t -> expectations.add(field("text", "$.text", t.value())));
      expect
          .textMatches()
          .flatMap(t -> pattern(t, "text_matches"))
          .ifPresent(p ->
              expectations.add(
                  new Expectation.TextMatching("text_matches", JsonPath.parse("$.text"), p)));
      error(expect.error(), expectations);
      requireOne(
          expectations, expect, written, "`uri`, `mime_type`, `text`, `text_matches` or `error`");
      cases.add(
          new ResourceCase(written.name().value(), written.name().origin(), uri, expectations));
    }
    String subject =
        template.map(ResourceTemplate::uriTemplate).orElseGet(() -> resource.orElseThrow().uri());
    return diagnostics.errorCount() > errors
        ? Optional.empty()
        : Optional.of(new ResourceSuite(subject, template.isPresent(), definition.file(), cases));
  }

  private static Expectation field(String label, String path, String value) {
    return new Expectation.PathValue(label, JsonPath.parse(path), Json.NODES.stringNode(value));
  }

  private Map<String, String> arguments(
      CaseDefinition written, List<String> declared, String owner) {
    Map<String, String> arguments = new LinkedHashMap<>();
    for (NamedValue argument : written.arguments()) {
      String name = argument.key().value();
      if (!declared.contains(name)) {
        diagnostics.error(
            "invalid-test-input",
            argument.key().origin(),
            owner + " has no argument `" + name + "`",
            Suggestions.didYouMean(name, declared)
                .orElse(
                    declared.isEmpty()
                        ? "it takes no arguments"
                        : "its arguments: " + String.join(", ", declared)));
      }
      arguments.put(name, argument.value().value());
    }
    return arguments;
  }

  private void jsonPaths(Optional<YamlNode> jsonPath, List<Expectation> expectations) {
    new ExpectationParts(diagnostics).jsonPaths(jsonPath, "$[0].text", expectations);
  }

  private void error(Optional<Located<String>> error, List<Expectation> expectations) {
    error
        .flatMap(e -> pattern(e, "error"))
        .ifPresent(p -> expectations.add(new Expectation.ErrorMatching(p)));
  }

  private Optional<Pattern> pattern(Located<String> text, String field) {
    return new ExpectationParts(diagnostics).pattern(text, "`" + field + "`");
  }

  private void requireOne(
      List<Expectation> expectations,
      ExpectDefinition expect,
      CaseDefinition written,
      String fields) {
    if (expectations.isEmpty()
        && expect.error().isEmpty()
        && expect.textMatches().isEmpty()
        && expect.jsonPath().isEmpty()) {
      diagnostics.error(
          "missing-expectation",
          expect.origin(),
          "case `" + written.name().value() + "` expects nothing",
          "add " + fields);
    }
  }
}

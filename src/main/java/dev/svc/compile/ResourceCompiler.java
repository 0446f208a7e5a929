package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.ResourceDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.model.Resource;
import dev.svc.model.ResourceTemplate;
import dev.svc.model.UriTemplate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;

/** Compiles resources and resource templates; one definition shape covers both. */
final class ResourceCompiler {
  private final Diagnostics diagnostics;
  private final Path projectDirectory;

  ResourceCompiler(Diagnostics diagnostics, Path projectDirectory) {
    this.diagnostics = diagnostics;
    this.projectDirectory = projectDirectory;
  }

  /** The compiled definition: a {@link Resource} or a {@link ResourceTemplate}. */
  sealed interface Compiled {}

  record Concrete(Resource resource, Origin origin) implements Compiled {}

  record Template(ResourceTemplate template, Origin origin) implements Compiled {}

  Optional<Compiled> compile(ResourceDefinition r) {
    if (r.uri().isPresent() && r.uriTemplate().isPresent()) {
      diagnostics.error(
          "conflicting-uri",
          r.uriTemplate().get().origin(),
          "a resource has either `uri` (concrete) or `uri_template` (template), not both",
          "split it into two definitions");
      return Optional.empty();
    }
    if (r.uri().isEmpty() && r.uriTemplate().isEmpty()) {
      diagnostics.error(
          "missing-uri",
          r.origin(),
          "the resource has neither `uri` nor `uri_template`",
          "add `uri: docs://readme` for a concrete resource, or `uri_template: docs://{name}` for a template");
      return Optional.empty();
    }
    return r.uri().isPresent() ? concrete(r) : template(r);
  }

  private Optional<Compiled> concrete(ResourceDefinition r) {
    Located<String> uri = r.uri().get();
    misplaced(r.textTemplate(), "text_template", "concrete resource", "text");
    misplaced(r.fileTemplate(), "file_template", "concrete resource", "file");
    if (!r.arguments().isEmpty()) {
      diagnostics.error(
          "wrong-mode-field",
          r.arguments().getFirst().name().origin(),
          "`arguments` belong to resource templates; this resource has a fixed `uri`",
          "remove them, or use `uri_template` with `{argument}` variables");
    }
    Optional<Resource.Content> content = content(r.text(), r.file(), r, "text", "file");
    String name = r.name().map(Located::value).or(r::defaultName).orElse(uri.value());
    return content.map(c ->
        new Concrete(
            new Resource(
                uri.value(),
                name,
                r.title().map(Located::value),
                r.description().map(Located::value),
                r.mimeType().map(Located::value),
                c),
            uri.origin()));
  }

  private Optional<Resource.Content> content(
      Optional<Located<String>> text,
      Optional<Located<String>> file,
      ResourceDefinition r,
      String textField,
      String fileField) {
    if (text.isPresent() && file.isPresent()) {
      diagnostics.error(
          "conflicting-content",
          file.get().origin(),
          "the resource sets both `" + textField + "` and `" + fileField + "`; keep one");
      return Optional.empty();
    }
    if (text.isPresent()) {
      return Optional.of(new Resource.InlineText(text.get().value()));
    }
    if (file.isEmpty()) {
      diagnostics.error(
          "missing-content",
          r.origin(),
          "the resource has no content",
          "add `" + textField + ": …` or `" + fileField + ": <path>`");
      return Optional.empty();
    }
    Optional<Path> resolved =
        FilePaths.resolve(projectDirectory.resolve(r.directory()), file.get(), diagnostics);
    if (resolved.isEmpty()) {
      return Optional.empty();
    }
    Path path = resolved.get();
    if (!Files.isRegularFile(path)) {
      diagnostics.error(
          "missing-file",
          file.get().origin(),
          "the content file `" + file.get().value() + "` does not exist",
          "paths start at "
              + (r.directory().isEmpty() ? "the project directory" : r.directory() + "/"));
      return Optional.empty();
    }
    if (!FilePaths.servable(projectDirectory, path, file.get(), diagnostics)) {
      return Optional.empty();
    }
    return Optional.of(
        new Resource.ContentFile(projectDirectory.relativize(path).toString().replace('\\', '/')));
  }

  private Optional<Compiled> template(ResourceDefinition r) {
    Located<String> uriTemplate = r.uriTemplate().get();
    misplaced(r.text(), "text", "resource template", "text_template");
    misplaced(r.file(), "file", "resource template", "file_template");
    UriTemplate parsed;
    try {
      parsed = UriTemplate.parse(uriTemplate.value());
    } catch (IllegalArgumentException e) {
      diagnostics.error(
          "invalid-uri-template",
          uriTemplate.origin(),
          "`" + uriTemplate.value() + "` is not a valid URI template: " + e.getMessage(),
          "variables are written `{name}` (RFC 6570)");
      return Optional.empty();
    }
    List<String> known = new ArrayList<>(parsed.variables());
    r.arguments().forEach(a -> known.add(a.name().value()));
    Optional<ResourceTemplate.Content> content;
    if (r.textTemplate().isPresent() && r.fileTemplate().isPresent()) {
      diagnostics.error(
          "conflicting-content",
          r.fileTemplate().get().origin(),
          "the template sets both `text_template` and `file_template`; keep one");
      content = Optional.empty();
    } else if (r.textTemplate().isPresent()) {
      checkPlaceholders(r.textTemplate().get(), known);
      content = Optional.of(new ResourceTemplate.InlineTemplate(r.textTemplate().get().value()));
    } else if (r.fileTemplate().isPresent()) {
      content = fileTemplate(r, r.fileTemplate().get(), known);
    } else {
      diagnostics.error(
          "missing-content",
          r.origin(),
          "the resource template has no content",
          "add `text_template: …` or `file_template: <path>`");
      content = Optional.empty();
    }
    String name = r.name().map(Located::value).or(r::defaultName).orElse(uriTemplate.value());
    return content.map(c ->
        new Template(
            new ResourceTemplate(
                uriTemplate.value(),
                name,
                r.title().map(Located::value),
                r.description().map(Located::value),
                r.mimeType().map(Located::value),
                PromptCompiler.arguments(r.arguments()),
                c),
            uriTemplate.origin()));
  }

  private Optional<ResourceTemplate.Content> fileTemplate(
      ResourceDefinition r, Located<String> path, List<String> known) {
    checkPlaceholders(path, known);
    if (!PromptCompiler.PLACEHOLDER.matcher(path.value()).find()) {
      Optional<Path> file =
          FilePaths.resolve(projectDirectory.resolve(r.directory()), path, diagnostics);
      if (file.isEmpty()) {
        return Optional.empty();
      }
      if (!Files.isRegularFile(file.get())) {
        diagnostics.error(
            "missing-file",
            path.origin(),
            "the template file `" + path.value() + "` does not exist",
            "paths start at "
                + (r.directory().isEmpty() ? "the project directory" : r.directory() + "/"));
        return Optional.empty();
      }
      if (!FilePaths.servable(projectDirectory, file.get(), path, diagnostics)) {
        return Optional.empty();
      }
    }
    return Optional.of(new ResourceTemplate.FileTemplate(r.directory(), path.value()));
  }

  private void checkPlaceholders(Located<String> text, List<String> known) {
    Matcher m = PromptCompiler.PLACEHOLDER.matcher(text.value());
    while (m.find()) {
      if (!known.contains(m.group(1))) {
        diagnostics.warning(
            "undeclared-argument",
            text.origin(),
            "`" + m.group() + "` is neither a variable of the URI template nor a declared argument",
            "variables of the URI template are filled in; others stay as written");
      }
    }
  }

  private void misplaced(
      Optional<Located<String>> value, String field, String kind, String instead) {
    value.ifPresent(v ->
        diagnostics.error(
            "wrong-mode-field",
            v.origin(),
            "`" + field + "` does not apply to a " + kind,
            "use `" + instead + "`"));
  }
}

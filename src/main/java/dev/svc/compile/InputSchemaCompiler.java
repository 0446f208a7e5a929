package dev.svc.compile;

import dev.svc.diagnostic.Diagnostics;
import dev.svc.json.JsonSchema;
import dev.svc.project.YamlNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool's {@code input_schema}: the JSON Schema 2020-12 of its arguments, written in YAML, becomes
 * JSON (docs/decisions.md "Declared input schemas"). Checked here so that the runtime can compile
 * it without failing: an object schema at the root (MCP requires it), the 2020-12 dialect, valid
 * against the 2020-12 metaschema, every {@code $ref} inside the document (svc never fetches a
 * schema), and compilable (patterns are regular expressions, references resolve).
 */
final class InputSchemaCompiler {
  private static final String CODE = "invalid-input-schema";

  /** Keywords whose values are data, not schemas: a {@code $ref} in them is no reference. */
  private static final Set<String> DATA_KEYWORDS = Set.of("const", "enum", "default", "examples");

  private final Diagnostics diagnostics;

  InputSchemaCompiler(Diagnostics diagnostics) {
    this.diagnostics = diagnostics;
  }

  /**
   * The schema as JSON; empty when absent or when a problem was reported.
   *
   * @param inputs the {@code inputs} the tool declares beside it (a tool has one or the other)
   */
  Optional<ObjectNode> compile(Optional<YamlNode> written, List<?> inputs) {
    if (written.isEmpty() || !(written.get() instanceof YamlNode.Mapping root)) {
      return Optional.empty(); // not a mapping: the shape checker reported it
    }
    int errorsBefore = diagnostics.errorCount();
    if (!inputs.isEmpty()) {
      diagnostics.error(
          "conflicting-inputs",
          root.origin(),
          "the tool declares both `inputs` and `input_schema`; its arguments are described by one"
              + " or the other",
          "keep `inputs` for typed inputs svc converts, or move them into `input_schema` as"
              + " `properties` (the handler then gets the arguments as sent)");
    }
    rootType(root);
    root.get("$schema").ifPresent(this::dialect);
    ObjectNode json = (ObjectNode) new YamlJson(diagnostics, "input_schema", CODE).json(root);
    referencesAndPatterns(root, json);
    if (diagnostics.errorCount() > errorsBefore) {
      return Optional.empty();
    }
    // the costly checks last, on a schema that is otherwise sound
    Set<String> reported = new HashSet<>();
    for (JsonSchema.Problem problem : JsonSchema.metaschemaProblems(json)) {
      if (reported.add(problem.location())) { // the first of a place's problems says enough
        diagnostics.error(
            CODE,
            at(root, problem.location()).origin(),
            "the `input_schema` is not valid JSON Schema 2020-12: "
                + (problem.location().isEmpty() ? "" : "`" + problem.location() + "`: ")
                + problem.message(),
            "see https://json-schema.org/draft/2020-12/json-schema-validation for each keyword's"
                + " value");
      }
    }
    if (!reported.isEmpty()) {
      return Optional.empty();
    }
    if (JsonSchema.compile(json) instanceof JsonSchema.Refused refused) {
      diagnostics.error(
          CODE,
          root.origin(),
          "the `input_schema` cannot be used: " + refused.message(),
          "each `$ref` must point into the schema, and each keyword have a value of its kind");
      return Optional.empty();
    }
    return Optional.of(json);
  }

  private void rootType(YamlNode.Mapping root) {
    Optional<YamlNode> type = root.get("type");
    if (type.isEmpty()) {
      diagnostics.error(
          CODE,
          root.origin(),
          "the `input_schema` has no `type`; MCP requires an object schema at its root",
          "add `type: object` and describe the arguments under `properties:`");
    } else if (!(type.get() instanceof YamlNode.Scalar scalar && scalar.text().equals("object"))) {
      diagnostics.error(
          CODE,
          type.get().origin(),
          "the `input_schema` root has `type` "
              + (type.get() instanceof YamlNode.Scalar s ? "`" + s.text() + "`" : "as a list")
              + "; MCP requires `object` (a tool's arguments are always a JSON object)",
          "write `type: object`");
    }
  }

  private void dialect(YamlNode schema) {
    if (!(schema instanceof YamlNode.Scalar scalar
        && JsonSchema.DIALECT.equals(scalar.text().replaceFirst("#$", "")))) {
      diagnostics.error(
          CODE,
          schema.origin(),
          "svc checks arguments with JSON Schema 2020-12; `$schema` may only name it",
          "write `$schema: "
              + JsonSchema.DIALECT
              + "`, or leave `$schema` out (2020-12 is MCP's"
              + " default)");
    }
  }

  /**
   * Every {@code $ref} and {@code $dynamicRef} must stay inside the document: a fragment ({@code
   * #/$defs/x} or an {@code $anchor}) that exists, or the {@code $id} of a schema in it. svc never
   * fetches a schema, at compile time or at run time. Every pattern must be a regular expression.
   */
  private void referencesAndPatterns(YamlNode.Mapping root, JsonNode json) {
    Set<String> ids = new HashSet<>();
    Set<String> anchors = new HashSet<>();
    List<YamlNode.Scalar> references = new ArrayList<>();
    List<YamlNode.Scalar> patterns = new ArrayList<>();
    collect(root, new Keywords(ids, anchors, references, patterns));
    patterns.forEach(this::pattern);
    Optional<URI> base = root.get("$id").flatMap(InputSchemaCompiler::uri);
    Set<URI> resolvedIds = new HashSet<>();
    ids.forEach(id -> uri(id).ifPresent(u -> resolvedIds.add(resolve(base, u))));
    for (YamlNode.Scalar reference : references) {
      String text = reference.text();
      int hash = text.indexOf('#');
      String document = hash < 0 ? text : text.substring(0, hash);
      String fragment = hash < 0 ? "" : text.substring(hash + 1);
      if (!document.isEmpty()) {
        Optional<URI> target = uri(document);
        if (target.isEmpty() || !resolvedIds.contains(resolve(base, target.get()))) {
          diagnostics.error(
              "external-schema-ref",
              reference.origin(),
              "`" + text + "` points outside the `input_schema`; svc never fetches schemas",
              "copy the schema it points to under `$defs:` and refer to it as `#/$defs/<name>`");
        }
        continue; // a fragment of an embedded resource is the compiler's to check
      }
      if (fragment.isEmpty()) {
        continue; // the root
      }
      boolean found =
          fragment.startsWith("/")
              ? pointer(json, fragment).isPresent()
              : anchors.contains(fragment);
      if (!found) {
        diagnostics.error(
            CODE,
            reference.origin(),
            "`" + text + "` points at nothing in the `input_schema`",
            fragment.startsWith("/")
                ? "a JSON Pointer from the schema's root, e.g. `#/$defs/address`"
                : "an `$anchor` of that name, or a JSON Pointer such as `#/$defs/address`");
      }
    }
  }

  /** What {@link #collect} gathers from the schema. */
  private record Keywords(
      Set<String> ids,
      Set<String> anchors,
      List<YamlNode.Scalar> references,
      List<YamlNode.Scalar> patterns) {}

  private static void collect(YamlNode node, Keywords found) {
    switch (node) {
      case YamlNode.Mapping mapping -> {
        for (YamlNode.Entry entry : mapping.entries()) {
          String key = entry.key().text();
          if (DATA_KEYWORDS.contains(key)) {
            continue;
          }
          if (entry.value() instanceof YamlNode.Scalar scalar && !scalar.isNull()) {
            switch (key) {
              case "$ref", "$dynamicRef" -> found.references().add(scalar);
              case "$id" -> found.ids().add(scalar.text());
              case "$anchor", "$dynamicAnchor" -> found.anchors().add(scalar.text());
              case "pattern" -> found.patterns().add(scalar);
              default -> {}
            }
          } else {
            if (key.equals("patternProperties")
                && entry.value() instanceof YamlNode.Mapping properties) {
              properties.entries().forEach(p -> found.patterns().add(p.key()));
            }
            collect(entry.value(), found);
          }
        }
      }
      case YamlNode.Sequence sequence -> sequence.items().forEach(item -> collect(item, found));
      case YamlNode.Scalar scalar -> {}
    }
  }

  /**
   * A {@code pattern} (or a {@code patternProperties} name) must be a regular expression. The
   * validator runs them as Java regular expressions, which read the ECMA-262 patterns schemas use
   * alike but for a few corners (such as {@code \d} matching only ASCII digits in both).
   */
  private void pattern(YamlNode.Scalar pattern) {
    try {
      Pattern.compile(pattern.text());
    } catch (PatternSyntaxException e) {
      diagnostics.error(
          CODE,
          pattern.origin(),
          "`"
              + pattern.text()
              + "` in the `input_schema` is not a regular expression: "
              + e.getDescription()
              + " near index "
              + e.getIndex(),
          "quote the pattern, and escape a literal `[`, `(` or `\\` with a backslash");
    }
  }

  private static Optional<URI> uri(YamlNode node) {
    return node instanceof YamlNode.Scalar scalar ? uri(scalar.text()) : Optional.empty();
  }

  private static Optional<URI> uri(String text) {
    try {
      return Optional.of(new URI(text.replaceFirst("#$", "")));
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  private static URI resolve(Optional<URI> base, URI uri) {
    return base.filter(URI::isAbsolute).map(b -> b.resolve(uri)).orElse(uri);
  }

  /** The value at a JSON Pointer (RFC 6901; percent-encoding as in a URI fragment). */
  private static Optional<JsonNode> pointer(JsonNode json, String pointer) {
    JsonNode current = json;
    for (String segment : segments(pointer)) {
      current =
          current.isArray() && segment.matches("0|[1-9][0-9]{0,8}")
              ? current.get(Integer.parseInt(segment))
              : current.isObject() ? current.get(segment) : null;
      if (current == null) {
        return Optional.empty();
      }
    }
    return Optional.of(current);
  }

  private static List<String> segments(String pointer) {
    List<String> segments = new ArrayList<>();
    if (pointer.isEmpty()) {
      return segments;
    }
    for (String raw : pointer.substring(1).split("/", -1)) {
      String decoded = raw;
      try {
        decoded = URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        // not percent-encoded after all: take it as written
      }
      segments.add(decoded.replace("~1", "/").replace("~0", "~"));
    }
    return segments;
  }

  /** The node written at a JSON Pointer of the schema, or the nearest one above it. */
  private static YamlNode at(YamlNode root, String pointer) {
    YamlNode current = root;
    for (String segment : segments(pointer)) {
      Optional<YamlNode> next =
          switch (current) {
            case YamlNode.Mapping mapping -> mapping.get(segment);
            case YamlNode.Sequence sequence ->
                segment.matches("[0-9]{1,9}") && Integer.parseInt(segment) < sequence.items().size()
                    ? Optional.of(sequence.items().get(Integer.parseInt(segment)))
                    : Optional.empty();
            case YamlNode.Scalar scalar -> Optional.empty();
          };
      if (next.isEmpty()) {
        return current;
      }
      current = next.get();
    }
    return current;
  }
}

package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.definition.NamedValue;
import dev.svc.definition.ToolTestsDefinition;
import dev.svc.definition.ToolTestsDefinition.CaseDefinition;
import dev.svc.definition.ToolTestsDefinition.ExpectDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.diagnostic.Suggestions;
import dev.svc.json.Json;
import dev.svc.json.JsonSchema;
import dev.svc.model.ConnectorKind;
import dev.svc.model.Execution;
import dev.svc.model.Input;
import dev.svc.model.InputType;
import dev.svc.model.Tool;
import dev.svc.project.YamlNode;
import dev.svc.suite.Expectation;
import dev.svc.suite.ToolCase;
import dev.svc.suite.ToolSuite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Compiles a tool's {@code tests.terse} into a {@link ToolSuite}: checks that the cases' arguments
 * fit the tool's inputs, that each JSON path and error pattern parses, and that fixtures exist and
 * have a SQL adapter to run on. Every problem is reported where it is written.
 */
final class TestCompiler {
  private static final Set<ConnectorKind> SQL =
      Set.of(ConnectorKind.POSTGRES, ConnectorKind.MYSQL, ConnectorKind.SQLITE);

  private final Diagnostics diagnostics;
  private final Path projectDirectory;

  TestCompiler(Diagnostics diagnostics, Path projectDirectory) {
    this.diagnostics = diagnostics;
    this.projectDirectory = projectDirectory;
  }

  /** The suite, or empty when the file has an error (reported). */
  Optional<ToolSuite> compile(ToolTestsDefinition definition, Tool tool) {
    int errors = diagnostics.errorCount();
    List<String> fixtures = new ArrayList<>();
    for (Located<String> fixture : definition.fixtures()) {
      fixture(fixture, definition.directory(), tool).ifPresent(fixtures::add);
    }
    List<ToolCase> cases = new ArrayList<>();
    for (CaseDefinition written : definition.cases()) {
      compileCase(written, tool).ifPresent(cases::add);
    }
    if (definition.cases().isEmpty()) {
      diagnostics.warning(
          "empty-tests",
          definition.origin(),
          "the test file has no cases",
          "add a case under `cases:` (docs/testing.md)");
    }
    boolean inMemorySqlite =
        definition.inMemorySqlite().filter(Located::value).isPresent()
            && inMemorySqlite(definition.inMemorySqlite().get(), tool);
    boolean freshSchema =
        definition.freshSchema().filter(Located::value).isPresent()
            && freshSchema(definition.freshSchema().get(), tool, inMemorySqlite);
    return diagnostics.errorCount() > errors
        ? Optional.empty()
        : Optional.of(
            new ToolSuite(
                tool.name(), definition.file(), fixtures, inMemorySqlite, freshSchema, cases));
  }

  /** Whether the tool runs on a PostgreSQL adapter, where a schema can be made; reports why not. */
  private boolean freshSchema(Located<Boolean> written, Tool tool, boolean inMemorySqlite) {
    if (inMemorySqlite) {
      diagnostics.error(
          "invalid-test-database",
          written.origin(),
          "`fresh_schema` and `in_memory_sqlite` exclude each other",
          "keep one: a schema on the real PostgreSQL server, or SQLite instead of it");
      return false;
    }
    if (!(tool.execution() instanceof Execution.OnAdapter on
        && on.connector() == ConnectorKind.POSTGRES)) {
      diagnostics.error(
          "invalid-test-database",
          written.origin(),
          "`fresh_schema` is for tools on a postgres adapter; tool `" + tool.name() + "` has none",
          "remove `fresh_schema` (SQLite files are fresh per suite anyway)");
      return false;
    }
    return true;
  }

  /** Whether the tool can run on SQLite in place of its adapter; reports why not. */
  private boolean inMemorySqlite(Located<Boolean> written, Tool tool) {
    if (!(tool.execution() instanceof Execution.OnAdapter on && SQL.contains(on.connector()))) {
      diagnostics.error(
          "invalid-test-database",
          written.origin(),
          "`in_memory_sqlite` replaces a SQL adapter; tool `" + tool.name() + "` has none",
          "remove `in_memory_sqlite`");
      return false;
    }
    if (on.session().isPresent()) {
      diagnostics.error(
          "invalid-test-database",
          written.origin(),
          "tool `"
              + tool.name()
              + "` sets PostgreSQL `session` settings, which SQLite does not have",
          "test it on a PostgreSQL database instead: remove `in_memory_sqlite`");
      return false;
    }
    return true;
  }

  private Optional<String> fixture(Located<String> fixture, String directory, Tool tool) {
    if (!(tool.execution() instanceof Execution.OnAdapter on && SQL.contains(on.connector()))) {
      diagnostics.error(
          "invalid-fixture",
          fixture.origin(),
          "fixtures are SQL run on the tool's adapter; tool `"
              + tool.name()
              + "` has no SQL adapter",
          "remove `fixtures`, or test a tool whose `use:` names a postgres, mysql or sqlite"
              + " adapter");
      return Optional.empty();
    }
    return fixtureFile(fixture, directory);
  }

  /** A fixture's path relative to the project, when the file exists inside it (else reported). */
  Optional<String> fixtureFile(Located<String> fixture, String directory) {
    Optional<Path> resolved =
        FilePaths.resolve(projectDirectory.resolve(directory), fixture, diagnostics);
    if (resolved.isEmpty()) {
      return Optional.empty();
    }
    Path file = resolved.get();
    // by the path as written: a link inside the project is the author's own, followed as linked
    // folders of definitions are
    if (!file.startsWith(projectDirectory.normalize())) {
      diagnostics.error(
          "invalid-fixture",
          fixture.origin(),
          "fixture `" + fixture.value() + "` is outside the project");
      return Optional.empty();
    }
    if (FilePaths.namesEnvFile(file)) {
      diagnostics.error(
          "invalid-fixture",
          fixture.origin(),
          "fixture `"
              + fixture.value()
              + "` is a .env file, which holds the project's secrets: run as SQL, its values would"
              + " show in the database's error messages",
          "name a SQL file");
      return Optional.empty();
    }
    if (Files.isRegularFile(file) && size(file) > ToolSuite.MAX_FIXTURE_BYTES) {
      diagnostics.error(
          "invalid-fixture",
          fixture.origin(),
          "fixture `"
              + fixture.value()
              + "` has "
              + size(file)
              + " bytes; a fixture is read whole, at most "
              + ToolSuite.MAX_FIXTURE_BYTES
              + " bytes",
          "split it into several files, or load the data with the database's own tools");
      return Optional.empty();
    }
    if (!Files.isRegularFile(file)) {
      diagnostics.error(
          "missing-fixture",
          fixture.origin(),
          "fixture file `" + fixture.value() + "` does not exist",
          "paths start at the test file's directory");
      return Optional.empty();
    }
    return Optional.of(projectDirectory.normalize().relativize(file).toString());
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0;
    }
  }

  private Optional<ToolCase> compileCase(CaseDefinition written, Tool tool) {
    int errors = diagnostics.errorCount();
    String name = written.name().value();
    YamlJson json = new YamlJson(diagnostics, "inputs", "invalid-test-input");
    JsonNode arguments = Json.NODES.objectNode();
    if (written.inputs().isPresent()) {
      arguments = json.json(written.inputs().get());
    }
    Map<String, String> headers = new LinkedHashMap<>();
    for (NamedValue header : written.headers()) {
      headers.put(header.key().value(), header.value().value());
    }
    Optional<ObjectNode> claims = written.claims().flatMap(this::claims);
    if (written.expect().isEmpty()) {
      return Optional.empty(); // missing-field reported by the shape check
    }
    ExpectDefinition expect = written.expect().get();
    int beforeExpectations = diagnostics.errorCount();
    List<Expectation> expectations = expectations(expect, name);
    boolean expectsError = expect.error().isPresent();
    if (!expectsError && tool.inputSchema().isPresent()) {
      checkAgainstSchema(
          arguments, written.inputs().map(YamlNode::origin).orElse(written.name().origin()), tool);
    } else if (!expectsError && written.inputs().isPresent()) {
      checkArguments(written.inputs().get(), tool);
    }
    if (expectations.isEmpty() && diagnostics.errorCount() == beforeExpectations) {
      diagnostics.error(
          "missing-expectation",
          expect.origin(),
          "case `" + name + "` expects nothing",
          "add `result`, `rows_contain`, `row_count`, `json_path`, `error` or `truncated`");
    }
    return diagnostics.errorCount() > errors
        ? Optional.empty()
        : Optional.of(
            new ToolCase(name, written.name().origin(), arguments, headers, claims, expectations));
  }

  /**
   * A case's {@code claims}: a mapping whose {@code sub} (when written) is a string and whose
   * {@code scope} a string of scopes separated by spaces, as in an access token.
   */
  private Optional<ObjectNode> claims(YamlNode written) {
    JsonNode claims = new YamlJson(diagnostics, "claims", "invalid-test-claims").json(written);
    if (!(claims instanceof ObjectNode object)) {
      diagnostics.error(
          "invalid-test-claims",
          written.origin(),
          "`claims` must be a mapping of claim names to values",
          "for example `claims: {sub: alice, scope: \"read write\"}`");
      return Optional.empty();
    }
    for (String name : List.of("sub", "scope")) {
      if (object.has(name) && !object.get(name).isString()) {
        diagnostics.error(
            "invalid-test-claims",
            written.origin(),
            "claim `" + name + "` must be a string",
            name.equals("scope")
                ? "write the scopes in one string, separated by spaces"
                : "quote it");
        return Optional.empty();
      }
    }
    return Optional.of(object);
  }

  private List<Expectation> expectations(ExpectDefinition expect, String caseName) {
    List<Expectation> expectations = new ArrayList<>();
    YamlJson json = new YamlJson(diagnostics, "expect", "invalid-expectation");
    expect.result().ifPresent(node -> expectations.add(new Expectation.Result(json.json(node))));
    expect
        .rowsContain()
        .ifPresent(node -> {
          if (node instanceof YamlNode.Sequence rows
              && rows.items().stream().allMatch(YamlNode.Mapping.class::isInstance)) {
            expectations.add(
                new Expectation.RowsContain(rows.items().stream().map(json::json).toList()));
          } else {
            diagnostics.error(
                "invalid-expectation",
                node.origin(),
                "`rows_contain` must be a list of mappings (the fields each row must hold), found "
                    + node.describe());
          }
        });
    expect
        .rowCount()
        .ifPresent(count -> expectations.add(new Expectation.RowCount(count.value().intValue())));
    new ExpectationParts(diagnostics).jsonPaths(expect.jsonPath(), "$[0].name", expectations);
    expect
        .error()
        .flatMap(error ->
            new ExpectationParts(diagnostics).pattern(error, "`error` of case `" + caseName + "`"))
        .ifPresent(pattern -> expectations.add(new Expectation.ErrorMatching(pattern)));
    expect.truncated().ifPresent(t -> expectations.add(new Expectation.Truncated(t.value())));
    return expectations;
  }

  /** Arguments of a tool with an {@code input_schema} must be valid against it. */
  private void checkAgainstSchema(JsonNode arguments, Origin at, Tool tool) {
    JsonNode schema = Json.MAPPER.readTree(tool.inputSchema().orElseThrow());
    if (!(JsonSchema.compile(schema) instanceof JsonSchema.Valid valid)) {
      return; // the tool's own diagnostic says why
    }
    for (JsonSchema.Problem problem : valid.schema().problems(arguments)) {
      diagnostics.error(
          "invalid-test-input",
          at,
          "the inputs do not match the input_schema of tool `"
              + tool.name()
              + "`: "
              + (problem.location().isEmpty() || problem.location().equals("$")
                  ? ""
                  : problem.location() + ": ")
              + problem.message(),
          "fix the inputs, or expect the refusal with `error:`");
    }
  }

  /** Arguments must name declared inputs, give every required one, and have the inputs' types. */
  private void checkArguments(YamlNode inputs, Tool tool) {
    if (!(inputs instanceof YamlNode.Mapping mapping)) {
      return; // the shape check reported it
    }
    List<String> declared = tool.inputs().stream().map(Input::name).toList();
    for (YamlNode.Entry entry : mapping.entries()) {
      String name = entry.key().text();
      Optional<Input> input = tool.input(name);
      if (input.isEmpty()) {
        diagnostics.error(
            "invalid-test-input",
            entry.key().origin(),
            "tool `" + tool.name() + "` has no input `" + name + "`",
            Suggestions.didYouMean(name, declared)
                .orElse(
                    declared.isEmpty()
                        ? "the tool takes no inputs"
                        : "its inputs: " + String.join(", ", declared)));
        continue;
      }
      typeProblem(input.get(), entry.value())
          .ifPresent(
              problem -> diagnostics.error("invalid-test-input", entry.value().origin(), problem));
    }
    for (Input input : tool.inputs()) {
      if (input.required()
          && input.defaultValue().isEmpty()
          && input.header().isEmpty()
          && mapping.get(input.name()).isEmpty()) {
        diagnostics.error(
            "invalid-test-input",
            mapping.origin(),
            "required input `" + input.name() + "` of tool `" + tool.name() + "` is missing",
            "add `" + input.name() + ":` under `inputs`, or expect the refusal with `error:`");
      }
    }
  }

  private static Optional<String> typeProblem(Input input, YamlNode value) {
    if (value instanceof YamlNode.Scalar scalar && scalar.isNull()) {
      return Optional.empty(); // null stands for "not given"; the pipeline decides
    }
    boolean fits =
        value instanceof YamlNode.Scalar scalar
            && switch (input.type()) {
              case STRING, DATETIME -> scalar.kind() == YamlNode.ScalarKind.STRING;
              case INT -> scalar.kind() == YamlNode.ScalarKind.INTEGER;
              case FLOAT ->
                  scalar.kind() == YamlNode.ScalarKind.INTEGER
                      || scalar.kind() == YamlNode.ScalarKind.FLOAT;
              case BOOLEAN -> scalar.kind() == YamlNode.ScalarKind.BOOLEAN;
            };
    return fits
        ? Optional.empty()
        : Optional.of(
            "input `"
                + input.name()
                + "` is "
                + input.type().wireName()
                + ", found "
                + value.describe()
                + (input.type() == InputType.STRING || input.type() == InputType.DATETIME
                    ? " (quote it to pass text: \"42\")"
                    : " (write it unquoted: 42, 4.2, true)"));
  }
}

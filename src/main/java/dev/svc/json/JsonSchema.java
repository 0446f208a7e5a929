package dev.svc.json;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.regex.RegularExpression;
import com.networknt.schema.regex.RegularExpressions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.JsonNodeException;

/**
 * A compiled JSON Schema 2020-12, checking values against itself. Done by networknt's
 * json-schema-validator (a maintained implementation of the specification, passing its test suite,
 * built on the same Jackson 3 as svc): writing a validator of our own would repeat its work and its
 * bugs. One registry for the whole process: it never fetches anything over the network (a {@code
 * $ref} to another document fails to compile), and the 2020-12 metaschema comes from the library's
 * own jar. A compiled schema is safe to use from many threads.
 */
public final class JsonSchema {
  /** The only dialect svc accepts, also the default of a schema without {@code $schema}. */
  public static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

  /**
   * Deeper values than this are refused unchecked: the validator recurses once per level (or more),
   * and a value that deep is no honest argument. Jackson refuses to read deeper ones anyway (500).
   */
  public static final int MAX_DEPTH = 500;

  private final Schema schema;

  private JsonSchema(Schema schema) {
    this.schema = schema;
  }

  /** The outcome of {@link #compile}. */
  public sealed interface Compiled {}

  public record Valid(JsonSchema schema) implements Compiled {}

  /**
   * The schema cannot be used: a reference that resolves to nothing, a pattern that is no regex.
   */
  public record Refused(String message) implements Compiled {}

  /**
   * One way a value breaks a schema.
   *
   * @param location JSON Pointer of the offending part of the value ({@code ""} for all of it)
   * @param keyword the schema keyword it breaks, such as {@code type} or {@code required}
   * @param schemaPath JSON Pointer of that keyword in the schema, through any {@code $ref}
   * @param message what is wrong, in the library's words (English)
   */
  public record Problem(String location, String keyword, String schemaPath, String message) {}

  private static final class Registry {
    static final SchemaRegistry REGISTRY =
        SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            builder ->
                builder
                    .schemaLoader(loader -> loader.fetchRemoteResources(false))
                    .schemaRegistryConfig(
                        SchemaRegistryConfig.builder()
                            .regularExpressionFactory(BoundedPattern::of)
                            .build()));
  }

  /**
   * Most steps the {@code pattern}s of a schema may take on one value, all its parts together: a
   * pattern like {@code ^(.*a){12}$} backtracks exponentially on a crafted string, and a value is
   * the caller's to craft — one string, or 100,000 strings of an array that each stay just under a
   * budget of their own. Past the budget the check stops and the value is refused; ordinary
   * patterns on ordinary values take far fewer (about one step per character).
   */
  static final long PATTERN_BUDGET = 20_000_000;

  /** The steps left to the check running on this thread (unbound outside {@link #problems}). */
  private static final ScopedValue<long[]> STEPS = ScopedValue.newInstance();

  /**
   * A value of more parts than this that breaks the schema is reported by its first problem only:
   * listing them all would make an error object per part and per branch of an {@code anyOf} — a 2
   * MB array of a million numbers where strings belong made a million (about 600 MB).
   */
  static final int MOST_PARTS_CHECKED_IN_FULL = 1_000;

  /**
   * A JDK regular expression, read as the library's own default reads ECMA-262 patterns, that
   * counts the characters it reads (the steps of a backtracking match).
   */
  private record BoundedPattern(Pattern pattern) implements RegularExpression {
    static BoundedPattern of(String regex) {
      return new BoundedPattern(
          Pattern.compile(
              RegularExpressions.replaceLongformCharacterProperties(
                  RegularExpressions.replaceDollarAnchors(regex))));
    }

    @Override
    public boolean matches(String value) {
      long[] budget = STEPS.isBound() ? STEPS.get() : new long[] {PATTERN_BUDGET};
      return pattern.matcher(new CountedText(value, budget)).find();
    }
  }

  private static final class Metaschema {
    static final Schema METASCHEMA = metaschema();

    private static Schema metaschema() {
      Schema schema = Registry.REGISTRY.getSchema(SchemaLocation.of(DIALECT));
      schema.initializeValidators();
      return schema;
    }
  }

  /** Compiles {@code schema} with every reference resolved now, not at the first value checked. */
  public static Compiled compile(JsonNode schema) {
    try {
      Schema compiled = Registry.REGISTRY.getSchema(schema);
      compiled.initializeValidators();
      return new Valid(new JsonSchema(compiled));
    } catch (SchemaException | IllegalArgumentException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e; // e.g. a PatternSyntaxException
      String message = String.valueOf(cause.getMessage());
      return new Refused(message.lines().findFirst().orElse(message));
    }
  }

  /**
   * How {@code schema} breaks the JSON Schema 2020-12 metaschema (a keyword with a value of the
   * wrong kind, a {@code type} that is no JSON type); empty when it is a valid schema.
   */
  public static List<Problem> metaschemaProblems(JsonNode schema) {
    return problems(Metaschema.METASCHEMA, schema);
  }

  /**
   * How {@code value} breaks this schema; empty when it conforms. The check stops at the first
   * problem, and only a value of at most {@value #MOST_PARTS_CHECKED_IN_FULL} parts is checked
   * again for all of them; its patterns share one budget of steps.
   */
  public List<Problem> problems(JsonNode value) {
    if (depth(value) > MAX_DEPTH) {
      return List.of(
          new Problem("", "", "", "the value is nested deeper than " + MAX_DEPTH + " levels"));
    }
    try {
      return ScopedValue.where(STEPS, new long[] {PATTERN_BUDGET}).call(() -> check(value));
    } catch (CountedText.BudgetExceeded e) {
      return List.of(
          new Problem(
              "", "pattern", "", "the value takes too long to match the `pattern`s of the schema"));
    } catch (StackOverflowError e) {
      // a schema whose every level recurses many times: refuse the value, keep the thread
      return List.of(new Problem("", "", "", "the value is nested too deeply to be checked"));
    } catch (JsonNodeException e) {
      // the validator compares a number with an integral `minimum`, `maximum` or their exclusive
      // kin as a 64-bit integer, and Jackson refuses to make one of 1e19 (found by McpWireFuzzIT)
      return List.of(
          new Problem(
              beyondLong(value),
              "",
              "",
              "the number is beyond ±9223372036854775807, the range in which svc compares numbers"
                  + " with the schema's bounds"));
    }
  }

  /** The JSON Pointer of the first number in {@code value} a {@code long} cannot hold. */
  private static String beyondLong(JsonNode value) {
    ArrayDeque<Map.Entry<String, JsonNode>> waiting = new ArrayDeque<>();
    waiting.add(Map.entry("", value));
    while (!waiting.isEmpty()) {
      Map.Entry<String, JsonNode> next = waiting.poll();
      JsonNode node = next.getValue();
      if (node.isNumber() && !node.canConvertToLong()) {
        return next.getKey();
      }
      if (node.isObject()) {
        for (Map.Entry<String, JsonNode> property : node.properties()) {
          waiting.add(
              Map.entry(
                  next.getKey() + "/" + property.getKey().replace("~", "~0").replace("/", "~1"),
                  property.getValue()));
        }
      } else if (node.isArray()) {
        for (int i = 0; i < node.size(); i++) {
          waiting.add(Map.entry(next.getKey() + "/" + i, node.get(i)));
        }
      }
    }
    return "";
  }

  private List<Problem> check(JsonNode value) {
    List<Problem> first = problems(schema, value, true);
    if (first.isEmpty()
        || parts(value, MOST_PARTS_CHECKED_IN_FULL + 1) > MOST_PARTS_CHECKED_IN_FULL) {
      return first;
    }
    return problems(schema, value, false);
  }

  private static List<Problem> problems(Schema schema, JsonNode value) {
    return problems(schema, value, false);
  }

  private static List<Problem> problems(Schema schema, JsonNode value, boolean firstOnly) {
    List<Problem> problems = new ArrayList<>();
    List<Error> errors =
        firstOnly
            ? schema.validate(value, context -> context.executionConfig(c -> c.failFast(true)))
            : schema.validate(value);
    for (Error error : errors) {
      problems.add(
          new Problem(
              error.getInstanceLocation().toString(),
              error.getKeyword() == null ? "" : error.getKeyword(),
              error.getEvaluationPath().toString(),
              error.getMessage()));
    }
    return problems;
  }

  /**
   * How many values {@code value} is made of, itself included, counted without recursion up to
   * {@code most} (more are not counted).
   */
  static int parts(JsonNode value, int most) {
    int count = 0;
    ArrayDeque<JsonNode> waiting = new ArrayDeque<>();
    waiting.add(value);
    while (!waiting.isEmpty() && count < most) {
      JsonNode node = waiting.poll();
      count++;
      for (JsonNode part : node) { // a scalar has none
        if (count + waiting.size() >= most) {
          break;
        }
        waiting.add(part);
      }
    }
    return count + waiting.size();
  }

  /** How deep {@code value} nests (a scalar 0, {@code {}} 1), counted without recursion. */
  static int depth(JsonNode value) {
    int deepest = 0;
    List<JsonNode> level = List.of(value);
    while (deepest <= MAX_DEPTH) {
      List<JsonNode> next = new ArrayList<>();
      boolean containers = false;
      for (JsonNode node : level) {
        if (node.isContainer()) {
          containers = true;
          node.forEach(next::add);
        }
      }
      if (!containers) {
        break;
      }
      deepest++;
      level = next;
    }
    return deepest;
  }
}

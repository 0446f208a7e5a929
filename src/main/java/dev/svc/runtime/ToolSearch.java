package dev.svc.runtime;

import dev.svc.json.Json;
import dev.svc.model.Execution;
import dev.svc.model.Input;
import dev.svc.model.Tool;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The built-in {@code search} tool: its arguments, schema and answer ({@link #call}), and how it
 * ranks tools lexically against a query ({@link #rank}). Query words are matched (as word prefixes)
 * against name, statement, input names, description and input descriptions, weighted in that order,
 * plus character-trigram overlap with name and description, and a bonus when the whole query
 * appears in the name. Scores are 1–100; ties go by name.
 */
public final class ToolSearch {
  public static final String NAME = "search";
  public static final String DESCRIPTION =
      "Find the tools of this server that fit a task. Give a few words describing what you need;"
          + " returns the best matching tools with their input schemas, best first.";

  /**
   * The longest query ranked: a few words describe a task. Ranking compares every query word with
   * every word of every tool and keeps the query's trigrams, so a query of megabytes (a million
   * words) would hold a core for minutes and the heap with its trigrams.
   */
  static final int MAX_QUERY_CHARACTERS = 1_000;

  private ToolSearch() {}

  /**
   * Answers a call of {@code search}: the best matches of {@code query}, at most {@code limit} of
   * them (and never more than {@code maxResults}), each with its input schema.
   */
  static ToolOutcome call(List<Tool> tools, int maxResults, JsonNode arguments) {
    JsonNode query = arguments == null ? null : arguments.get("query");
    if (query == null || !query.isString() || query.asString().isBlank()) {
      return new ToolOutcome.Failure("invalid arguments: `query` must be a non-empty string");
    }
    if (query.asString().length() > MAX_QUERY_CHARACTERS) {
      return new ToolOutcome.Failure(
          "invalid arguments: `query` holds "
              + query.asString().length()
              + " characters; give a few words describing the task, at most "
              + MAX_QUERY_CHARACTERS
              + " characters");
    }
    int limit = maxResults;
    JsonNode requested = arguments.get("limit");
    if (requested != null && !requested.isNull()) {
      if (!requested.canConvertToInt() || requested.asInt() < 1) {
        return new ToolOutcome.Failure("invalid arguments: `limit` must be a positive integer");
      }
      limit = Math.min(limit, requested.asInt());
    }
    ArrayNode results = Json.NODES.arrayNode();
    for (Match match : rank(tools, query.asString(), limit)) {
      ObjectNode entry = results.addObject();
      entry.put("name", match.tool().name());
      entry.put("description", match.tool().description());
      entry.put("score", match.score());
      entry.set("inputSchema", InputSchemas.of(match.tool()));
    }
    return new ToolOutcome.Success(results);
  }

  /** The schema of {@code search}'s arguments. */
  public static ObjectNode inputSchema() {
    ObjectNode schema = Json.NODES.objectNode();
    schema.put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    properties
        .putObject("query")
        .put("type", "string")
        .put("maxLength", MAX_QUERY_CHARACTERS)
        .put("description", "What you need a tool for.");
    properties
        .putObject("limit")
        .put("type", "integer")
        .put("minimum", 1)
        .put("description", "Most results to return.");
    schema.putArray("required").add("query");
    schema.put("additionalProperties", false);
    return schema;
  }

  /** One ranked tool. */
  public record Match(Tool tool, int score) {}

  public static List<Match> rank(List<Tool> tools, String query, int limit) {
    List<String> words = words(query);
    if (words.isEmpty() || limit <= 0) {
      return List.of();
    }
    String whole = String.join(" ", words);
    Set<String> queryGrams = trigrams(whole);
    List<Match> matches = new ArrayList<>();
    for (Tool tool : tools) {
      double score =
          0.30 * coverage(words, words(tool.name()))
              + 0.25 * coverage(words, words(statementText(tool)))
              + 0.18 * coverage(words, words(inputNames(tool)))
              + 0.14 * coverage(words, words(tool.description()))
              + 0.08 * coverage(words, words(inputDescriptions(tool)))
              + 0.15
                  * jaccard(
                      queryGrams,
                      trigrams(String.join(" ", words(tool.name() + " " + tool.description()))));
      if (String.join(" ", words(tool.name())).contains(whole)) {
        score += 0.20;
      }
      int percent = (int) Math.round(Math.min(1.0, score) * 100);
      if (score > 0.04) {
        matches.add(new Match(tool, Math.max(1, percent)));
      }
    }
    matches.sort(
        Comparator.comparingInt(Match::score).reversed().thenComparing(m -> m.tool().name()));
    return matches.subList(0, Math.min(limit, matches.size()));
  }

  private static String statementText(Tool tool) {
    return tool.execution() instanceof Execution.OnAdapter on ? on.statement().source() : "";
  }

  private static String inputNames(Tool tool) {
    if (tool.inputSchema().isPresent()) {
      return String.join(" ", declaredProperties(tool).propertyNames());
    }
    return String.join(" ", tool.inputs().stream().map(Input::name).toList());
  }

  private static String inputDescriptions(Tool tool) {
    if (tool.inputSchema().isPresent()) {
      List<String> descriptions = new ArrayList<>();
      declaredProperties(tool)
          .forEach(property -> descriptions.add(property.path("description").asString("")));
      return String.join(" ", descriptions);
    }
    return String.join(" ", tool.inputs().stream().map(i -> i.description().orElse("")).toList());
  }

  /** The root {@code properties} of a declared input schema: the arguments it names. */
  private static JsonNode declaredProperties(Tool tool) {
    return InputSchemas.of(tool).path("properties");
  }

  /** Fraction of query words that start some word of the field. */
  private static double coverage(List<String> query, List<String> field) {
    if (field.isEmpty()) {
      return 0;
    }
    int found = 0;
    for (String word : query) {
      if (field.stream()
          .anyMatch(f -> f.startsWith(word) || (f.length() >= 4 && word.startsWith(f)))) {
        found++;
      }
    }
    return (double) found / query.size();
  }

  /** Lower-case words; {@code get_itemsByName} gives {@code get, items, by, name}. */
  static List<String> words(String text) {
    String spaced = text.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    List<String> words = new ArrayList<>();
    for (String word : spaced.split("[^\\p{L}\\p{N}]+")) {
      if (!word.isEmpty()) {
        words.add(word);
      }
    }
    return words;
  }

  private static Set<String> trigrams(String text) {
    Set<String> grams = new HashSet<>();
    String padded = "  " + text + " ";
    for (int i = 0; i + 3 <= padded.length(); i++) {
      grams.add(padded.substring(i, i + 3));
    }
    return grams;
  }

  private static double jaccard(Set<String> a, Set<String> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return 0;
    }
    Set<String> common = new HashSet<>(a);
    common.retainAll(b);
    return (double) common.size() / a.size();
  }
}

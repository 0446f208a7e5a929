package dev.svc.suite;

import dev.svc.json.Json;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** One thing a case's answer must satisfy (docs/testing.md lists them with examples). */
public sealed interface Expectation {

  /** The mismatch when {@code answer} does not satisfy this expectation. */
  Optional<Mismatch> check(Answer answer);

  /**
   * {@code result} (a prompt's {@code messages}): the payload, exactly (numbers by value, keys in
   * any order).
   *
   * @param label the field it is written as
   */
  record Result(String label, JsonNode expected) implements Expectation {
    public Result(JsonNode expected) {
      this("result", expected);
    }

    @Override
    public Optional<Mismatch> check(Answer answer) {
      if (answer.payload().isEmpty()) {
        return Optional.of(unexpectedError(label, answer));
      }
      JsonNode actual = answer.payload().get();
      return JsonMatch.equal(expected, actual)
          ? Optional.empty()
          : Optional.of(
              new Mismatch(
                  label,
                  "the " + label + " differ" + (label.endsWith("s") ? "" : "s"),
                  TextDiff.unified(pretty(expected), pretty(actual))));
    }
  }

  /** {@code rows_contain}: each of these objects matches some row holding at least its fields. */
  record RowsContain(List<JsonNode> rows) implements Expectation {
    public RowsContain {
      rows = List.copyOf(rows);
    }

    @Override
    public Optional<Mismatch> check(Answer answer) {
      if (answer.payload().isEmpty()) {
        return Optional.of(unexpectedError("rows_contain", answer));
      }
      JsonNode actual = answer.payload().get();
      if (!actual.isArray()) {
        return Optional.of(
            new Mismatch(
                "rows_contain", "the result is not a list of rows: " + oneLine(actual), ""));
      }
      for (JsonNode row : rows) {
        boolean found = false;
        for (JsonNode candidate : actual) {
          if (JsonMatch.contains(candidate, row)) {
            found = true;
            break;
          }
        }
        if (!found) {
          return Optional.of(
              new Mismatch(
                  "rows_contain",
                  "no row matches " + oneLine(row) + closestNote(actual),
                  closest(actual, row)
                      .map(c -> TextDiff.unified(pretty(row), pretty(c)))
                      .orElse("")));
        }
      }
      return Optional.empty();
    }
  }

  /** {@code row_count}: the number of items of a list result (1 for any other payload). */
  record RowCount(int count) implements Expectation {
    @Override
    public Optional<Mismatch> check(Answer answer) {
      if (answer.payload().isEmpty()) {
        return Optional.of(unexpectedError("row_count", answer));
      }
      JsonNode actual = answer.payload().get();
      int rows = actual.isArray() ? actual.size() : 1;
      return rows == count
          ? Optional.empty()
          : Optional.of(
              new Mismatch(
                  "row_count", "expected " + count + " row(s), got " + rows, pretty(actual)));
    }
  }

  /**
   * One entry of {@code json_path}, or a field of a resource ({@code uri}, {@code mime_type},
   * {@code text}): the value the path selects in the payload.
   *
   * @param label how a report names it
   */
  record PathValue(String label, JsonPath path, JsonNode expected) implements Expectation {
    public PathValue(JsonPath path, JsonNode expected) {
      this("json_path " + path.text(), path, expected);
    }

    @Override
    public Optional<Mismatch> check(Answer answer) {
      String name = label;
      if (answer.payload().isEmpty()) {
        return Optional.of(unexpectedError(name, answer));
      }
      Optional<JsonNode> selected = path.select(answer.payload().get());
      if (selected.isEmpty()) {
        return Optional.of(
            new Mismatch(name, "the path selects nothing", pretty(answer.payload().get())));
      }
      return JsonMatch.equal(expected, selected.get())
          ? Optional.empty()
          : Optional.of(
              new Mismatch(
                  name, "expected " + oneLine(expected) + ", got " + oneLine(selected.get()), ""));
    }
  }

  /** {@code error}: an {@code isError} result whose message the pattern finds. */
  record ErrorMatching(Pattern pattern) implements Expectation {
    @Override
    public Optional<Mismatch> check(Answer answer) {
      if (answer.error().isEmpty()) {
        return Optional.of(
            new Mismatch(
                "error",
                "expected an error matching /" + pattern.pattern() + "/, the call succeeded",
                answer.payload().map(Expectation::pretty).orElse("")));
      }
      Optional<Boolean> found = BoundedFind.find(pattern, answer.error().get());
      if (found.isEmpty()) {
        return Optional.of(new Mismatch("error", BoundedFind.givenUp(pattern), ""));
      }
      return found.get()
          ? Optional.empty()
          : Optional.of(
              new Mismatch(
                  "error",
                  "the error does not match /" + pattern.pattern() + "/",
                  TextDiff.unified(pattern.pattern(), answer.error().get())));
    }
  }

  /** {@code text_matches}: a text the path selects, which the pattern finds. */
  record TextMatching(String label, JsonPath path, Pattern pattern) implements Expectation {
    @Override
    public Optional<Mismatch> check(Answer answer) {
      if (answer.payload().isEmpty()) {
        return Optional.of(unexpectedError(label, answer));
      }
      Optional<JsonNode> selected = path.select(answer.payload().get());
      if (selected.isEmpty() || !selected.get().isString()) {
        return Optional.of(new Mismatch(label, "there is no text", pretty(answer.payload().get())));
      }
      String text = selected.get().asString();
      Optional<Boolean> found = BoundedFind.find(pattern, text);
      if (found.isEmpty()) {
        return Optional.of(new Mismatch(label, BoundedFind.givenUp(pattern), ""));
      }
      return found.get()
          ? Optional.empty()
          : Optional.of(
              new Mismatch(
                  label,
                  "the text does not match /" + pattern.pattern() + "/",
                  TextDiff.unified(pattern.pattern(), text)));
    }
  }

  /**
   * An agent's {@code tool_calls}: the tools called, in order, each with its arguments when the
   * expected entry gives them (an entry without {@code arguments} accepts any).
   */
  record ToolCalls(List<JsonNode> expected) implements Expectation {
    public ToolCalls {
      expected = List.copyOf(expected);
    }

    @Override
    public Optional<Mismatch> check(Answer answer) {
      if (answer.payload().isEmpty()) {
        return Optional.of(unexpectedError("tool_calls", answer));
      }
      JsonNode calls = answer.payload().get().path("tool_calls");
      var actual = Json.NODES.arrayNode();
      for (int i = 0; i < calls.size(); i++) {
        var call = Json.NODES.objectNode();
        call.set("tool", calls.get(i).path("tool"));
        boolean withArguments = i >= expected.size() || expected.get(i).has("arguments");
        if (withArguments) {
          call.set("arguments", calls.get(i).path("arguments"));
        }
        actual.add(call);
      }
      var wanted = Json.NODES.arrayNode();
      expected.forEach(wanted::add);
      return JsonMatch.equal(wanted, actual)
          ? Optional.empty()
          : Optional.of(
              new Mismatch(
                  "tool_calls",
                  "the tools called differ",
                  TextDiff.unified(pretty(wanted), pretty(actual))));
    }
  }

  /** {@code truncated}: whether a cap cut the result. */
  record Truncated(boolean truncated) implements Expectation {
    @Override
    public Optional<Mismatch> check(Answer answer) {
      if (answer.payload().isEmpty()) {
        return Optional.of(unexpectedError("truncated", answer));
      }
      return answer.truncated() == truncated
          ? Optional.empty()
          : Optional.of(
              new Mismatch(
                  "truncated",
                  truncated ? "expected a cap to cut the result, none did" : "a cap cut the result",
                  ""));
    }
  }

  private static String closestNote(JsonNode rows) {
    return rows.isEmpty() ? " (the result has no rows)" : "; the closest row, in its fields:";
  }

  /**
   * The row sharing most fields with {@code fields}, cut down to those fields (so that a diff shows
   * only what differs), or empty when there are no rows.
   */
  private static Optional<JsonNode> closest(JsonNode rows, JsonNode fields) {
    JsonNode best = null;
    int bestScore = -1;
    for (JsonNode row : rows) {
      int score = 0;
      for (var field : fields.properties()) {
        JsonNode value = row.get(field.getKey());
        if (value != null && JsonMatch.equal(field.getValue(), value)) {
          score++;
        }
      }
      if (score > bestScore) {
        best = row;
        bestScore = score;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    var cut = Json.NODES.objectNode();
    for (var field : fields.properties()) {
      JsonNode value = best.get(field.getKey());
      if (value != null) {
        cut.set(field.getKey(), value);
      }
    }
    return Optional.of(cut);
  }

  private static Mismatch unexpectedError(String expectation, Answer answer) {
    return new Mismatch(
        expectation, "the call failed (isError): " + answer.error().orElse("(no message)"), "");
  }

  /** A value as indented JSON, for diffs. */
  static String pretty(JsonNode value) {
    return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
  }

  private static String oneLine(JsonNode value) {
    String json = Json.MAPPER.writeValueAsString(value);
    return json.length() > 200 ? json.substring(0, 197) + "..." : json;
  }
}

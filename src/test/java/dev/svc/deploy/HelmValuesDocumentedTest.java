package dev.svc.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Helm chart's values, as {@code values.schema.json} accepts them (an unknown key is an error
 * there), are the values docs/deploy.md's "Values" table describes: none is missing from the table,
 * and the table names none the chart would refuse.
 *
 * <p>The table's first column names values by their dotted path; a name starting with a dot is a
 * sibling of the name before it in the same cell ({@code `autoscaling.minReplicas`,
 * `.maxReplicas`}). A value's own keys may instead be named as single words in its row's last
 * column ({@code resources}: {@code `requests`, `limits`, `claims`}). A group of values ({@code
 * probes}, {@code image}) is documented by its members.
 */
class HelmValuesDocumentedTest {
  private static final Path SCHEMA = Path.of("deploy/helm/svc/values.schema.json");
  private static final Path PAGE = Path.of("docs/deploy.md");
  private static final Pattern CODE = Pattern.compile("`([^`]+)`");
  private static final Pattern WORD = Pattern.compile("`([A-Za-z]+)`");

  @Test
  void everyValueTheChartAcceptsIsInTheValuesTable() throws IOException {
    Map<String, List<String>> table = valuesTable();
    List<String> undocumented = new ArrayList<>();
    for (Map.Entry<String, Boolean> value : schemaPaths().entrySet()) {
      String path = value.getKey();
      boolean group = value.getValue();
      if (!group && !documented(path, table)) {
        undocumented.add(path);
      }
    }
    assertThat(undocumented)
        .as("values of %s with no row (or word in their parent's row) in %s", SCHEMA, PAGE)
        .isEmpty();
  }

  @Test
  void everyValueTheTableNamesIsOneTheChartAccepts() throws IOException {
    Map<String, Boolean> schema = schemaPaths();
    assertThat(valuesTable().keySet())
        .as("names in %s's Values table that %s would refuse", PAGE, SCHEMA)
        .allSatisfy(name -> assertThat(schema).containsKey(name));
  }

  private static boolean documented(String path, Map<String, List<String>> table) {
    if (table.containsKey(path)) {
      return true;
    }
    int dot = path.lastIndexOf('.');
    return dot > 0
        && table.getOrDefault(path.substring(0, dot), List.of()).contains(path.substring(dot + 1));
  }

  /**
   * Every value's dotted path, with whether it is a group: an object whose keys the schema lists
   * one by one (documented through them).
   */
  private static Map<String, Boolean> schemaPaths() throws IOException {
    Map<String, Boolean> paths = new LinkedHashMap<>();
    collect(JsonMapper.builder().build().readTree(Files.readString(SCHEMA)), "", paths);
    assertThat(paths).as("values in %s", SCHEMA).hasSizeGreaterThan(50);
    return paths;
  }

  private static void collect(JsonNode schema, String prefix, Map<String, Boolean> paths) {
    JsonNode properties = schema.path("properties");
    for (String name : properties.propertyNames()) {
      String path = prefix.isEmpty() ? name : prefix + "." + name;
      JsonNode value = properties.get(name);
      paths.put(path, value.path("properties").size() > 0);
      collect(value, path, paths);
    }
  }

  /** The table's names, each with the single words its row's last column puts in code. */
  private static Map<String, List<String>> valuesTable() throws IOException {
    List<String> lines = Files.readAllLines(PAGE);
    int start = lines.indexOf("### Values");
    assertThat(start).as("a \"### Values\" section in %s", PAGE).isNotNegative();
    Map<String, List<String>> table = new LinkedHashMap<>();
    int row = start + 1;
    while (row < lines.size() && !lines.get(row).startsWith("|")) {
      row++;
    }
    for (row += 2; row < lines.size() && lines.get(row).startsWith("|"); row++) {
      String[] cells = lines.get(row).split(" \\| ");
      List<String> words = new ArrayList<>();
      Matcher word = WORD.matcher(cells[cells.length - 1]);
      while (word.find()) {
        words.add(word.group(1));
      }
      String last = null;
      Matcher name = CODE.matcher(cells[0]);
      while (name.find()) {
        String written = name.group(1);
        String path =
            written.startsWith(".") && last != null
                ? last.substring(0, last.lastIndexOf('.')) + written
                : written;
        if (!written.startsWith(".")) {
          last = written;
        }
        table.put(path, words);
      }
    }
    assertThat(table).as("rows of %s's Values table", PAGE).hasSizeGreaterThan(50);
    return table;
  }
}

package dev.svc.agent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Function names for tools that every provider accepts. Tool names may hold dots, start with a
 * digit and run to 128 characters; OpenAI allows {@code [a-zA-Z0-9_-]{1,64}} and Gemini wants a
 * letter or underscore first. A valid name is kept as it is; others are rewritten ({@code .} →
 * {@code _}, {@code t_} in front, shortened with a hash) and made unique. Maps both ways.
 */
public final class FunctionNames {
  private static final Pattern PORTABLE = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_-]{0,63}");

  private final Map<String, String> toolByFunction = new LinkedHashMap<>();
  private final Map<String, String> functionByTool = new LinkedHashMap<>();

  public FunctionNames(List<String> tools) {
    for (String tool : tools) {
      if (PORTABLE.matcher(tool).matches()) {
        add(tool, tool);
      }
    }
    for (String tool : tools) {
      if (!PORTABLE.matcher(tool).matches()) {
        add(tool, unique(portable(tool)));
      }
    }
  }

  private void add(String tool, String function) {
    toolByFunction.put(function, tool);
    functionByTool.put(tool, function);
  }

  public String function(String tool) {
    String name = functionByTool.get(tool);
    if (name == null) {
      throw new IllegalArgumentException("not an offered tool: " + tool);
    }
    return name;
  }

  /** The tool a function name stands for; empty for a name that was never offered. */
  public Optional<String> tool(String function) {
    return Optional.ofNullable(toolByFunction.get(function));
  }

  static String portable(String tool) {
    String name = tool.replaceAll("[^a-zA-Z0-9_-]", "_");
    if (!Character.isLetter(name.charAt(0)) && name.charAt(0) != '_') {
      name = "t_" + name;
    }
    if (name.length() > 64) {
      String hash = Integer.toHexString(tool.hashCode() & 0x7fffffff);
      name = name.substring(0, 63 - hash.length()) + "_" + hash;
    }
    return name;
  }

  private String unique(String name) {
    String candidate = name;
    for (int i = 2; toolByFunction.containsKey(candidate); i++) {
      String suffix = "_" + i;
      candidate = name.substring(0, Math.min(name.length(), 64 - suffix.length())) + suffix;
    }
    return candidate;
  }
}

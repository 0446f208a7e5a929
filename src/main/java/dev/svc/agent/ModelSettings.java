package dev.svc.agent;

import dev.svc.json.Json;
import dev.svc.model.Agent;
import dev.svc.model.EnvString;
import dev.svc.model.Provider;
import dev.svc.project.Environment;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * An agent's model options with {@code {{ env.X }}} filled in and the provider's fallbacks applied.
 * The keys svc reads itself are taken out; every other option is a generation parameter passed to
 * the provider, its text turned back into a number or boolean where it reads as one.
 *
 * @param apiKey {@code api_key}, else the provider's default variable ({@code GOOGLE_API_KEY},
 *     {@code OPENAI_API_KEY})
 * @param baseUrl {@code base_url}, else the provider's public endpoint
 * @param project Vertex: {@code project}, else {@code GOOGLE_CLOUD_PROJECT}
 * @param location Vertex: {@code location}, else {@code GOOGLE_CLOUD_LOCATION}, else {@code
 *     GOOGLE_CLOUD_REGION}
 * @param maxSteps {@code max_steps}: model calls per task (default {@value #DEFAULT_MAX_STEPS})
 * @param timeout {@code timeout} in seconds: how long one model call may take to start answering,
 *     and go quiet after; its whole answer has ten times as long
 * @param parameters every other option, typed, in the order written
 */
public record ModelSettings(
    Provider provider,
    String model,
    Optional<String> apiKey,
    String baseUrl,
    Optional<String> project,
    Optional<String> location,
    int maxSteps,
    Duration timeout,
    Map<String, JsonNode> parameters) {

  public static final int DEFAULT_MAX_STEPS = 8;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);
  public static final String OPENAI_BASE_URL = "https://api.openai.com/v1";
  public static final String GEMINI_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

  /** Option keys svc reads itself; they are never sent to the provider. */
  public static final List<String> KNOWN_KEYS =
      List.of("api_key", "base_url", "project", "location", "max_steps", "timeout");

  private static final Pattern INTEGER = Pattern.compile("-?\\d{1,18}");
  private static final Pattern DECIMAL = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");

  public ModelSettings {
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
  }

  /**
   * Resolves an agent's options.
   *
   * @throws dev.svc.model.MissingVariableException when a placeholder names an unset variable
   * @throws ModelException when {@code max_steps} or {@code timeout} is not a positive integer
   */
  public static ModelSettings of(Agent.ModelSpec spec, Environment environment) {
    Map<String, String> options = new LinkedHashMap<>();
    for (Map.Entry<String, EnvString> option : spec.options().entrySet()) {
      options.put(option.getKey(), option.getValue().resolve(environment::get));
    }
    Provider provider = spec.provider();
    Optional<String> apiKey =
        nonBlank(options.get("api_key"))
            .or(() ->
                switch (provider) {
                  case GEMINI -> environment.get("GOOGLE_API_KEY");
                  case OPENAI_COMPATIBLE -> environment.get("OPENAI_API_KEY");
                  case VERTEX -> Optional.empty(); // decided below, once the project is known
                });
    Optional<String> project = Optional.empty();
    Optional<String> location = Optional.empty();
    if (provider == Provider.VERTEX) {
      project = nonBlank(options.get("project")).or(() -> environment.get("GOOGLE_CLOUD_PROJECT"));
      location =
          nonBlank(options.get("location"))
              .or(() -> environment.get("GOOGLE_CLOUD_LOCATION"))
              .or(() -> environment.get("GOOGLE_CLOUD_REGION"));
      if (apiKey.isEmpty() && project.isEmpty()) {
        // Vertex express mode: a key and no project. With a project, OAuth (ADC) is used.
        apiKey = environment.get("GOOGLE_API_KEY");
      }
    }
    boolean hasKey = apiKey.isPresent();
    Optional<String> region = location;
    String baseUrl =
        nonBlank(options.get("base_url"))
            .map(ModelSettings::withoutTrailingSlash)
            .orElseGet(() -> defaultBaseUrl(provider, hasKey, region));
    int maxSteps = positive(options.get("max_steps"), "max_steps", DEFAULT_MAX_STEPS);
    Duration timeout =
        Duration.ofSeconds(
            positive(options.get("timeout"), "timeout", (int) DEFAULT_TIMEOUT.toSeconds()));
    Map<String, JsonNode> parameters = new LinkedHashMap<>();
    options.forEach((key, value) -> {
      if (!KNOWN_KEYS.contains(key)) {
        parameters.put(key, typed(value));
      }
    });
    return new ModelSettings(
        provider, spec.model(), apiKey, baseUrl, project, location, maxSteps, timeout, parameters);
  }

  private static String defaultBaseUrl(
      Provider provider, boolean hasKey, Optional<String> location) {
    return switch (provider) {
      case OPENAI_COMPATIBLE -> OPENAI_BASE_URL;
      case GEMINI -> GEMINI_BASE_URL;
      case VERTEX -> {
        String region = location.orElse("global");
        yield hasKey || region.equals("global")
            ? "https://aiplatform.googleapis.com/v1"
            : "https://" + region + "-aiplatform.googleapis.com/v1";
      }
    };
  }

  /** An option's text as JSON: {@code true}/{@code false}, an integer, a decimal, else a string. */
  static JsonNode typed(String value) {
    String text = value.strip();
    if (text.equals("true") || text.equals("false")) {
      return Json.NODES.booleanNode(Boolean.parseBoolean(text));
    }
    if (INTEGER.matcher(text).matches()) {
      return Json.NODES.numberNode(Long.parseLong(text));
    }
    if (DECIMAL.matcher(text).matches()) {
      return Json.NODES.numberNode(Double.parseDouble(text));
    }
    return Json.NODES.stringNode(value);
  }

  private static int positive(String text, String key, int fallback) {
    if (text == null || text.isBlank()) {
      return fallback;
    }
    if (!Agent.ModelSpec.isPositiveWholeNumber(text)) {
      throw new ModelException(
          "model option `" + key + "` must be a positive whole number, not `" + text + "`");
    }
    return Integer.parseInt(text.strip());
  }

  private static Optional<String> nonBlank(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
  }

  private static String withoutTrailingSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  @Override
  public String toString() {
    return "ModelSettings[" + provider.wireName() + " " + model + " at " + baseUrl + "]";
  }
}

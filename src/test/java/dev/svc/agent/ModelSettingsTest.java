package dev.svc.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.model.Agent;
import dev.svc.model.EnvString;
import dev.svc.model.MissingVariableException;
import dev.svc.model.Provider;
import dev.svc.project.Environment;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelSettingsTest {
  static Agent.ModelSpec spec(Provider provider, String... options) {
    Map<String, EnvString> map = new LinkedHashMap<>();
    for (int i = 0; i + 1 < options.length; i += 2) {
      map.put(options[i], EnvString.plain(options[i + 1]));
    }
    return new Agent.ModelSpec(provider, "m", map);
  }

  static ModelSettings settings(Agent.ModelSpec spec, String... env) {
    Map<String, String> variables = new LinkedHashMap<>();
    for (int i = 0; i + 1 < env.length; i += 2) {
      variables.put(env[i], env[i + 1]);
    }
    return ModelSettings.of(spec, Environment.of(variables));
  }

  @Test
  void knownKeysAreTakenOutAndTheRestArePassedThroughTyped() {
    ModelSettings s =
        settings(
            spec(
                Provider.OPENAI_COMPATIBLE,
                "api_key",
                "k",
                "temperature",
                "0.2",
                "max_tokens",
                "100",
                "stream_usage",
                "true",
                "stop",
                "END",
                "seed",
                "-7",
                "max_steps",
                "3",
                "timeout",
                "30"));
    assertThat(s.apiKey()).contains("k");
    assertThat(s.maxSteps()).isEqualTo(3);
    assertThat(s.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.parameters().keySet())
        .containsExactly("temperature", "max_tokens", "stream_usage", "stop", "seed");
    assertThat(s.parameters().get("temperature").isDouble()).isTrue();
    assertThat(s.parameters().get("max_tokens").isIntegralNumber()).isTrue();
    assertThat(s.parameters().get("stream_usage").isBoolean()).isTrue();
    assertThat(s.parameters().get("stop").asString()).isEqualTo("END");
    assertThat(s.parameters().get("seed").asLong()).isEqualTo(-7);
  }

  @Test
  void defaultsAndKeyFallbacksFollowTheSpec() {
    ModelSettings openai = settings(spec(Provider.OPENAI_COMPATIBLE), "OPENAI_API_KEY", "o");
    assertThat(openai.apiKey()).contains("o");
    assertThat(openai.baseUrl()).isEqualTo("https://api.openai.com/v1");
    assertThat(openai.maxSteps()).isEqualTo(8);
    ModelSettings gemini = settings(spec(Provider.GEMINI), "GOOGLE_API_KEY", "g");
    assertThat(gemini.apiKey()).contains("g");
    assertThat(gemini.baseUrl()).isEqualTo("https://generativelanguage.googleapis.com/v1beta");
    assertThat(settings(spec(Provider.OPENAI_COMPATIBLE, "base_url", "http://h/v1/")).baseUrl())
        .isEqualTo("http://h/v1");
  }

  @Test
  void vertexFallsBackToTheCloudVariables() {
    ModelSettings vertex =
        settings(
            spec(Provider.VERTEX),
            "GOOGLE_CLOUD_PROJECT",
            "p",
            "GOOGLE_CLOUD_REGION",
            "r1",
            "GOOGLE_API_KEY",
            "g");
    assertThat(vertex.project()).contains("p");
    assertThat(vertex.location()).contains("r1");
    assertThat(vertex.apiKey()).as("a project means OAuth").isEmpty();
    assertThat(vertex.baseUrl()).isEqualTo("https://r1-aiplatform.googleapis.com/v1");
    ModelSettings located =
        settings(
            spec(Provider.VERTEX),
            "GOOGLE_CLOUD_PROJECT",
            "p",
            "GOOGLE_CLOUD_LOCATION",
            "l1",
            "GOOGLE_CLOUD_REGION",
            "r1");
    assertThat(located.location()).contains("l1");
    ModelSettings options =
        settings(
            spec(Provider.VERTEX, "project", "op", "location", "global"),
            "GOOGLE_CLOUD_PROJECT",
            "p");
    assertThat(options.project()).contains("op");
    assertThat(options.baseUrl()).isEqualTo("https://aiplatform.googleapis.com/v1");
    ModelSettings express = settings(spec(Provider.VERTEX), "GOOGLE_API_KEY", "g");
    assertThat(express.apiKey()).contains("g");
    assertThat(express.baseUrl()).isEqualTo("https://aiplatform.googleapis.com/v1");
  }

  @Test
  void badNumbersAndMissingVariablesAreErrors() {
    assertThatThrownBy(() -> settings(spec(Provider.GEMINI, "max_steps", "0")))
        .isInstanceOf(ModelException.class)
        .hasMessageContaining("`max_steps` must be a positive whole number");
    Agent.ModelSpec withPlaceholder =
        new Agent.ModelSpec(
            Provider.GEMINI, "m", Map.of("api_key", EnvString.plain("{{ env.NOPE }}")));
    assertThatThrownBy(() -> ModelSettings.of(withPlaceholder, Environment.of(Map.of())))
        .isInstanceOf(MissingVariableException.class);
  }
}

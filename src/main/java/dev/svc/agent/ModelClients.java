package dev.svc.agent;

import dev.svc.project.Environment;
import java.util.Optional;

/**
 * Picks the client of a provider: one exhaustive switch, so a new provider fails to compile here.
 */
public final class ModelClients {
  private ModelClients() {}

  public static ModelClient create(ModelSettings settings, Environment environment) {
    return switch (settings.provider()) {
      case OPENAI_COMPATIBLE -> new OpenAiCompatibleClient(settings);
      case GEMINI -> {
        if (settings.apiKey().isEmpty()) {
          throw new ModelException(
              "gemini needs an API key: set the model option `api_key` or GOOGLE_API_KEY");
        }
        yield new GeminiClient(settings, Optional.empty());
      }
      case VERTEX ->
          new GeminiClient(
              settings,
              settings.apiKey().isPresent()
                  ? Optional.empty()
                  : Optional.of(new GoogleAccessTokens(environment)));
    };
  }
}

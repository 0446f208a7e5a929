package dev.svc.agent;

import dev.svc.diagnostic.Diagnostic;
import dev.svc.log.Log;
import dev.svc.model.Agent;
import dev.svc.model.EnvString;
import dev.svc.model.MissingVariableException;
import dev.svc.model.Model;
import dev.svc.project.Environment;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks every agent's model options when serving starts (after the env placeholders were checked):
 * a {@code max_steps} or {@code timeout} whose environment variable is not a positive whole number
 * stops the start (literal values were checked when compiling); a provider without credentials is a
 * warning in the log (its tasks fail with that reason until it is fixed).
 */
public final class AgentChecks {
  private static final Log LOG = Log.tagged("agent");

  private AgentChecks() {}

  /** The problems that stop the start; warnings are logged. */
  public static List<Diagnostic> check(Model model, Environment environment) {
    List<Diagnostic> problems = new ArrayList<>();
    for (Agent agent : model.agents()) {
      Agent.ModelSpec spec = agent.model();
      int before = problems.size();
      for (String key : Agent.ModelSpec.LOOP_OPTIONS) {
        EnvString option = spec.options().get(key);
        if (option == null || !option.hasPlaceholders()) {
          continue; // literal values are checked when compiling
        }
        try {
          String value = option.resolve(environment::get);
          if (!Agent.ModelSpec.isPositiveWholeNumber(value)) {
            problems.add(
                Diagnostic.error(
                        "invalid-option",
                        option.origin(),
                        "model option `"
                            + key
                            + "` must be a positive whole number, not `"
                            + value
                            + "`")
                    .withHint(
                        "it comes from the environment: " + String.join(", ", option.variables())));
          }
        } catch (MissingVariableException e) {
          // reported by the runtime's start checks
        }
      }
      if (problems.size() > before) {
        continue;
      }
      try {
        warnAboutCredentials(agent, ModelSettings.of(spec, environment));
      } catch (MissingVariableException | ModelException e) {
        // reported above or by the runtime's start checks
      }
    }
    return problems;
  }

  private static void warnAboutCredentials(Agent agent, ModelSettings settings) {
    String problem =
        switch (settings.provider()) {
          case GEMINI ->
              settings.apiKey().isEmpty()
                  ? "has no API key: set the model option `api_key` or GOOGLE_API_KEY"
                  : "";
          case VERTEX ->
              settings.apiKey().isEmpty() && settings.project().isEmpty()
                  ? "has no project: set the model option `project` or GOOGLE_CLOUD_PROJECT"
                      + " (or an `api_key` for express mode)"
                  : "";
          case OPENAI_COMPATIBLE ->
              settings.apiKey().isEmpty()
                      && settings.baseUrl().equals(ModelSettings.OPENAI_BASE_URL)
                  ? "has no API key: set the model option `api_key` or OPENAI_API_KEY"
                  : "";
        };
    if (!problem.isEmpty()) {
      LOG.warn(
          "agent " + agent.name() + " " + problem + "; its tasks will fail until then",
          "agent",
          agent.name(),
          "provider",
          settings.provider().wireName());
    }
  }
}

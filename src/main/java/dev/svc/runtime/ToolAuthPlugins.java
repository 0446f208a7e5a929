package dev.svc.runtime;

import dev.svc.auth.AllowAllPlugin;
import dev.svc.auth.ApiKeyPlugin;
import dev.svc.auth.AuthDecision;
import dev.svc.auth.AuthPlugin;
import dev.svc.diagnostic.Diagnostic;
import dev.svc.model.AuthPolicy;
import dev.svc.model.EnvString;
import dev.svc.model.MissingVariableException;
import dev.svc.model.Model;
import dev.svc.model.Tool;
import dev.svc.project.Environment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The auth plugin of each tool that names one, its policy's values resolved from the environment:
 * {@code allow_all}, {@code api_key}, {@code jwt}, or a project's own plugin script. A policy that
 * cannot be used is a start-up problem, and its tool refuses every call rather than stay open.
 */
final class ToolAuthPlugins {
  private ToolAuthPlugins() {}

  /** The plugins by tool name; what cannot be resolved is added to {@code problems}. */
  static Map<String, AuthPlugin> of(
      Model model, ProjectRuntime.Settings settings, List<Diagnostic> problems) {
    Map<String, AuthPlugin> auth = new LinkedHashMap<>();
    JwtPlugins jwt =
        new JwtPlugins(model.service().auth().isPresent() || settings.tokensVerifiedByCaller());
    for (Tool tool : model.tools()) {
      tool.auth()
          .flatMap(policy -> plugin(tool, policy, settings, jwt, problems))
          .ifPresent(p -> auth.put(tool.name(), p));
    }
    return auth;
  }

  private static Optional<AuthPlugin> plugin(
      Tool tool,
      AuthPolicy policy,
      ProjectRuntime.Settings settings,
      JwtPlugins jwt,
      List<Diagnostic> problems) {
    Environment environment = settings.environment();
    Map<String, String> resolved = new LinkedHashMap<>();
    for (Map.Entry<String, EnvString> entry : policy.policy().entrySet()) {
      try {
        resolved.put(entry.getKey(), entry.getValue().resolve(environment::get));
      } catch (MissingVariableException e) {
        problems.add(ProjectRuntime.missing(e));
      }
    }
    return switch (policy.plugin()) {
      case AuthPolicy.ALLOW_ALL -> Optional.of(new AllowAllPlugin());
      case AuthPolicy.API_KEY ->
          Optional.of(
              new ApiKeyPlugin(
                  Optional.ofNullable(resolved.get("value"))
                      .or(() -> environment.get("SVC_API_KEY"))));
      case AuthPolicy.JWT ->
          // without a usable policy the start fails with problems; never leave the tool open
          Optional.of(
              jwt.plugin(policy, resolved, problems)
                  .<AuthPlugin>map(p -> p)
                  .orElse(caller ->
                      new AuthDecision.Deny("the `jwt` plugin of this tool has no usable policy")));
      default ->
          // the compiler resolves every custom plugin to its script; a model without one (never
          // expected) must refuse calls rather than leave the tool open
          Optional.of(
              policy
                  .script()
                  .<AuthPlugin>map(script ->
                      new ScriptAuthPlugin(
                          settings.scripts(),
                          policy.plugin(),
                          script,
                          tool.name(),
                          resolved,
                          tool.timeout()))
                  .orElse(caller ->
                      new AuthDecision.Deny(
                          "the auth plugin `" + policy.plugin() + "` has no script")));
    };
  }
}

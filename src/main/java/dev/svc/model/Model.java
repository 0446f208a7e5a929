package dev.svc.model;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A compiled project: immutable, validated, sorted by name (URI for resources). Everything that
 * serves a project reads this and nothing else of the source.
 *
 * @param scripts the bundled scripts of tools and auth plugins (TypeScript compiled away)
 */
public record Model(
    Service service,
    List<Adapter> adapters,
    List<Tool> tools,
    List<Prompt> prompts,
    List<Resource> resources,
    List<ResourceTemplate> resourceTemplates,
    List<Agent> agents,
    Scripts scripts) {

  // Plain lambdas rather than Comparator.comparing: the JDK makes that one a serializable lambda,
  // which the start-up cache cannot hold, so each start would generate its class (and load the
  // class-generating machinery for it) while decoding the model (docs/cli.md, "Start-up time").
  public Model {
    adapters = sorted(adapters, (a, b) -> a.name().compareTo(b.name()));
    tools = sorted(tools, (a, b) -> a.name().compareTo(b.name()));
    prompts = sorted(prompts, (a, b) -> a.name().compareTo(b.name()));
    resources = sorted(resources, (a, b) -> a.uri().compareTo(b.uri()));
    resourceTemplates =
        sorted(resourceTemplates, (a, b) -> a.uriTemplate().compareTo(b.uriTemplate()));
    agents = sorted(agents, (a, b) -> a.name().compareTo(b.name()));
  }

  public Optional<Tool> tool(String name) {
    return tools.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  public Optional<Adapter> adapter(String name) {
    return adapters.stream().filter(a -> a.name().equals(name)).findFirst();
  }

  public Optional<Prompt> prompt(String name) {
    return prompts.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  public Optional<Agent> agent(String name) {
    return agents.stream().filter(a -> a.name().equals(name)).findFirst();
  }

  /** Adapters that at least one tool uses: the ones opened at start. */
  public List<Adapter> usedAdapters() {
    return adapters.stream()
        .filter(a ->
            tools.stream()
                .anyMatch(t ->
                    t.execution() instanceof Execution.OnAdapter on
                        && on.adapter().equals(a.name())))
        .toList();
  }

  private static <T> List<T> sorted(List<T> items, Comparator<T> order) {
    return items.stream().sorted(order).toList();
  }
}

package dev.svc.runtime;

import dev.svc.model.Model;
import dev.svc.model.Resource;
import dev.svc.model.Tool;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a reload changed, for cache flushes and list-changed notifications.
 *
 * @param tools names of tools added, removed or changed
 * @param promptsChanged whether any prompt was added, removed or changed
 * @param resourcesChanged whether any resource or template was added, removed or changed
 * @param updatedUris concrete resources whose definition changed or whose content file is among the
 *     changed files
 */
public record ModelChanges(
    Set<String> tools, boolean promptsChanged, boolean resourcesChanged, Set<String> updatedUris) {

  public static ModelChanges between(Model before, Model after, Set<String> changedFiles) {
    Set<String> tools = new TreeSet<>();
    for (Tool tool : before.tools()) {
      if (!after.tool(tool.name()).map(tool::equals).orElse(false)) {
        tools.add(tool.name());
      }
    }
    for (Tool tool : after.tools()) {
      if (before.tool(tool.name()).isEmpty()) {
        tools.add(tool.name());
      }
    }
    Set<String> updated = new TreeSet<>();
    for (Resource resource : after.resources()) {
      boolean definitionChanged =
          before.resources().stream()
              .filter(r -> r.uri().equals(resource.uri()))
              .noneMatch(resource::equals);
      boolean fileChanged =
          resource.content() instanceof Resource.ContentFile file
              && changedFiles.contains(file.path());
      if (definitionChanged || fileChanged) {
        updated.add(resource.uri());
      }
    }
    return new ModelChanges(
        tools,
        !before.prompts().equals(after.prompts()),
        !before.resources().equals(after.resources())
            || !before.resourceTemplates().equals(after.resourceTemplates()),
        updated);
  }

  public boolean toolsChanged() {
    return !tools.isEmpty();
  }
}

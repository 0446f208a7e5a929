package dev.svc.compile;

import dev.svc.definition.AdapterDefinition;
import dev.svc.definition.AgentDefinition;
import dev.svc.definition.PromptDefinition;
import dev.svc.definition.ResourceDefinition;
import dev.svc.definition.RootDefinition;
import dev.svc.definition.ToolDefinition;
import java.util.List;
import java.util.Map;

/**
 * Every definition of a project as read from disk, before cross-checks.
 *
 * @param root the root configuration
 * @param baseDirectory {@code root} (default {@code app}), relative to the project
 * @param plugins custom auth plugins by name, each the project-relative path of its script
 * @param resources discovered and inline resources and templates alike
 * @param unreadableFiles definition files that could not be parsed (already reported); a project
 *     with such a file is not called empty
 */
record Definitions(
    RootDefinition root,
    String baseDirectory,
    List<AdapterDefinition> adapters,
    List<ToolDefinition> tools,
    List<PromptDefinition> prompts,
    List<ResourceDefinition> resources,
    List<AgentDefinition> agents,
    Map<String, String> plugins,
    int unreadableFiles) {}

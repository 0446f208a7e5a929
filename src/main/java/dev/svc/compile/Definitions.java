package dev.svc.compile;

import dev.svc.definition.AdapterDefinition;
import dev.svc.definition.AgentDefinition;
import dev.svc.definition.AgentTestsDefinition;
import dev.svc.definition.ContentTestsDefinition;
import dev.svc.definition.PromptDefinition;
import dev.svc.definition.ResourceDefinition;
import dev.svc.definition.RootDefinition;
import dev.svc.definition.ToolDefinition;
import dev.svc.definition.ToolTestsDefinition;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every definition of a project as read from disk, before cross-checks.
 *
 * @param root the root configuration
 * @param baseDirectory {@code root} (default {@code app}), relative to the project
 * @param plugins custom auth plugins by name, each the project-relative path of its script
 * @param resources discovered and inline resources and templates alike
 * @param unreadable definition files that could not be parsed (already reported)
 * @param toolTests the {@code tests.terse} files of tool directories (docs/testing.md)
 * @param contentTests the test files of prompts, resources and templates
 * @param agentTests the {@code tests.terse} files of agent directories
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
    Unreadable unreadable,
    List<ToolTestsDefinition> toolTests,
    List<ContentTestsDefinition> contentTests,
    List<AgentTestsDefinition> agentTests) {

  /**
   * Definition files whose YAML could not be parsed. Their error is the root cause: a project with
   * such a file is not called empty, and a reference to a name one of them would have defined (an
   * adapter's file name, a tool's directory name) is not reported again as unknown.
   *
   * @param files how many files could not be parsed
   * @param adapters the adapter names of unparseable adapter files
   * @param tools the tool names of unparseable tool directories
   * @param anyResource whether a resource file is among them (its URI is unknown, so no URI a
   *     prompt names is reported as unknown)
   */
  record Unreadable(int files, Set<String> adapters, Set<String> tools, boolean anyResource) {
    Unreadable {
      adapters = Set.copyOf(adapters);
      tools = Set.copyOf(tools);
    }
  }
}

package dev.svc.protocol.mcp;

import static dev.svc.protocol.jsonrpc.MethodHandler.result;

import dev.svc.call.ClientText;
import dev.svc.call.InputRequiredException;
import dev.svc.json.Json;
import dev.svc.log.Level;
import dev.svc.model.Tool;
import dev.svc.model.ToolAnnotations;
import dev.svc.protocol.jsonrpc.JsonRpcException;
import dev.svc.protocol.jsonrpc.MethodHandler;
import dev.svc.runtime.InputSchemas;
import dev.svc.runtime.ProjectRuntime;
import dev.svc.runtime.ToolOutcome;
import dev.svc.runtime.ToolSearch;
import dev.svc.runtime.UnknownToolException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The MCP methods svc answers, each a small handler registered by name. */
final class McpMethods {
  private volatile ToolList toolList = new ToolList(null, Json.NODES.objectNode());

  /** {@code tools/list} of one runtime (its model and its output schemas), built once. */
  private record ToolList(ProjectRuntime runtime, ObjectNode result) {}

  Map<String, MethodHandler<McpCall>> handlers() {
    Map<String, MethodHandler<McpCall>> handlers = new LinkedHashMap<>();
    handlers.put("ping", result((call, params) -> Json.NODES.objectNode()));
    handlers.put("logging/setLevel", result(this::setLevel));
    handlers.put(
        "tools/list",
        result((call, params) -> {
          ListResult.firstPageOnly(params);
          return toolList(call.runtime());
        }));
    handlers.put("tools/call", result(this::callTool));
    PromptMethods.register(handlers);
    ResourceMethods.register(handlers);
    return handlers;
  }

  private JsonNode setLevel(McpCall call, ObjectNode params) {
    JsonNode level = params.get("level");
    if (level == null || !level.isString()) {
      throw JsonRpcException.invalidParams(
          "`level` must be one of debug, info, notice, warning, error, critical, alert, emergency");
    }
    Level parsed =
        LogLevels.parse(level.asString())
            .orElseThrow(() ->
                JsonRpcException.invalidParams(
                    "unknown log level `"
                        + ClientText.shown(level.asString())
                        + "`; use debug, info, notice, warning, error, critical, alert or emergency"));
    call.session().setLogLevel(parsed);
    return Json.NODES.objectNode();
  }

  private ObjectNode toolList(ProjectRuntime runtime) {
    ToolList current = toolList;
    if (current.runtime() == runtime) {
      return current.result();
    }
    List<ListResult.Tool> tools = new ArrayList<>();
    for (Tool tool : runtime.model().tools()) {
      tools.add(
          new ListResult.Tool(
              tool.name(),
              Optional.of(tool.description()),
              InputSchemas.of(tool),
              ListResult.Annotations.of(tool.annotations()),
              runtime.outputSchemas().of(tool.name())));
    }
    tools.add(
        new ListResult.Tool(
            ToolSearch.NAME,
            Optional.of(ToolSearch.DESCRIPTION),
            ToolSearch.inputSchema(),
            ListResult.Annotations.of(ToolAnnotations.READS),
            Optional.empty()));
    ObjectNode result = new ListResult<>(ListResult.Listing.TOOLS, tools).toJson();
    toolList = new ToolList(runtime, result);
    return result;
  }

  private JsonNode callTool(McpCall call, ObjectNode params) {
    JsonNode name = params.get("name");
    if (name == null || !name.isString()) {
      throw JsonRpcException.invalidParams("`name` must be the name of a tool");
    }
    JsonNode arguments = params.get("arguments");
    if (arguments != null && !arguments.isObject() && !arguments.isNull()) {
      throw JsonRpcException.invalidParams("`arguments` must be an object");
    }
    call.progress(0, 1, "calling " + ClientText.shown(name.asString()));
    ToolOutcome outcome;
    try {
      outcome = call.runtime().tools().call(name.asString(), arguments, call.caller());
    } catch (UnknownToolException e) {
      List<String> known = new ArrayList<>();
      call.runtime().model().tools().forEach(tool -> known.add(tool.name()));
      known.add(ToolSearch.NAME);
      throw JsonRpcException.invalidParams(
          UnknownNames.message(e.getMessage(), name.asString(), known));
    } catch (InputRequiredException e) {
      if (call.caller().client() instanceof InputRounds rounds) {
        return rounds.inputRequired(); // 2026-07-28: the client answers by retrying the call
      }
      throw e;
    }
    if (outcome instanceof ToolOutcome.Failure failure) {
      call.log(Level.WARN, "svc", "tool `" + name.asString() + "` failed: " + failure.message());
    }
    call.progress(1, 1, "done");
    JsonNode result = ToolResults.of(outcome).toJson();
    // under 2026-07-28, a call that needed a capability the request did not declare is -32021
    return call.caller().client() instanceof InputRounds rounds ? rounds.complete(result) : result;
  }
}

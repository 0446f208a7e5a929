package dev.svc.protocol.a2a;

import dev.svc.auth.Principal;
import dev.svc.call.Caller;
import dev.svc.model.Agent;
import dev.svc.protocol.HttpCall;
import dev.svc.runtime.ProjectRuntime;

/**
 * One JSON-RPC request to an agent: the agent as currently declared, the runtime that serves it
 * (both read once per request, so a reload never splits a request), the HTTP call, the caller and
 * the principal whose tasks the request sees.
 */
record A2aCall(
    Agent agent, ProjectRuntime runtime, HttpCall http, Caller caller, Principal principal) {

  /** The tasks this request may see and touch: this agent's, of this principal. */
  TaskStore.Scope scope() {
    return new TaskStore.Scope(agent.name(), principal);
  }
}

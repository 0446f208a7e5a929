package dev.svc.protocol.a2a;

import dev.svc.call.Caller;
import dev.svc.model.Agent;
import dev.svc.protocol.HttpCall;
import dev.svc.runtime.ProjectRuntime;

/**
 * One JSON-RPC request to an agent: the agent as currently declared, the runtime that serves it
 * (both read once per request, so a reload never splits a request), the HTTP call and the caller.
 */
record A2aCall(Agent agent, ProjectRuntime runtime, HttpCall http, Caller caller) {}

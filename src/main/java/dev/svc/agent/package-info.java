/**
 * Agents: thin clients for the model providers (Gemini, Vertex AI, OpenAI-compatible chat
 * completions) on {@code java.net.http}, and the agent loop that sends the instruction, the
 * conversation and the agent's tools to the model and runs the tools it asks for through the one
 * tool pipeline ({@link dev.svc.runtime.ToolInvoker}).
 *
 * <p>Nothing here knows about A2A: the protocol layer ({@code dev.svc.protocol.a2a}) hands a task's
 * conversation to an {@link dev.svc.agent.AgentRunner} and turns its outcome and streamed text into
 * task events.
 */
package dev.svc.agent;

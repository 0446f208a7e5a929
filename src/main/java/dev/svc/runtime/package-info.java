/**
 * What a served project runs on: {@link dev.svc.runtime.ProjectRuntime} opens the adapters' pools
 * and owns them with the script runner and the result cache (and closes them in reverse order);
 * {@link dev.svc.runtime.ToolInvoker} runs the one tool pipeline of the specification (auth →
 * validation and defaults → input transform → cache lookup → handler or statement → output
 * transform → cache store) for MCP and agents alike. Prompts are rendered and resources read here
 * too. Failures the caller can fix are values ({@link dev.svc.runtime.ToolOutcome}); server faults
 * are {@link dev.svc.runtime.ToolServerException}s, worded once by {@link
 * dev.svc.runtime.ServerFault}.
 *
 * <p>May import {@code model}, {@code connector}, {@code script}, {@code auth}, {@code cache},
 * {@code call}, {@code telemetry}, {@code audit} and {@code log}; never {@code protocol}, {@code
 * server} or {@code cli}.
 */
package dev.svc.runtime;

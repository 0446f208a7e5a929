/**
 * Runs a project's tests ({@code svc test}, docs/testing.md) on the real runtime, and reports them
 * as text and as JUnit XML. A tool case is one call of {@code ToolInvoker.call}, the entry point of
 * an MCP {@code tools/call}, with the result cache off.
 */
package dev.svc.suite.run;

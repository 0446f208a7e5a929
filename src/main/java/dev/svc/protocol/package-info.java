/**
 * The protocols svc speaks (MCP, A2A) over one JSON-RPC layer, independent of the HTTP library:
 * they take an {@link dev.svc.protocol.HttpCall} and give an {@link dev.svc.protocol.HttpReply}.
 */
package dev.svc.protocol;

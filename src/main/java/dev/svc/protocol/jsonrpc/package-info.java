/**
 * The one JSON-RPC 2.0 layer MCP and A2A share: message types, parsing with the specification's
 * error codes, a dispatcher keyed by method name whose handlers answer with one result or a stream
 * of them ({@link dev.svc.protocol.jsonrpc.MethodReply}), the error codes in one place, and the
 * internal-error response of a server fault ({@link
 * dev.svc.protocol.jsonrpc.JsonRpcError#internal}).
 */
package dev.svc.protocol.jsonrpc;

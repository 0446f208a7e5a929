/**
 * The one JSON-RPC 2.0 layer MCP and A2A share: message types, parsing with the specification's
 * error codes, a dispatcher keyed by method name, and the error codes in one place.
 */
package dev.svc.protocol.jsonrpc;

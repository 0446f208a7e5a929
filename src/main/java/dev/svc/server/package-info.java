/**
 * The HTTP server: the only package that imports Jetty. Routes {@code /heartbeat}, {@code /mcp} and
 * {@code /agent/*}, guards Host and Origin, answers CORS, and writes bodies and SSE streams.
 */
package dev.svc.server;

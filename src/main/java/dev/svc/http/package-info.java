/**
 * What svc needs as an HTTP client (the JDK's) wherever it calls out to another server, shared by
 * the parts that do (the authorization server's endpoints, libSQL): a response body read into
 * memory only up to a limit ({@link dev.svc.http.LimitedBody}). Imports nothing of svc, so every
 * package may use it. The HTTP server is another matter: only {@code dev.svc.server} knows it.
 */
package dev.svc.http;

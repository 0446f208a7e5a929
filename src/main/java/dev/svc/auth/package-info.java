/**
 * Per-tool authentication plugins ({@code allow_all}, {@code api_key}, {@code jwt} and custom
 * ones), the OAuth access-token checks of {@code server.auth} ({@link dev.svc.auth.TokenVerifier}:
 * JWTs verified here, other tokens, or all, asked about at the issuer by token introspection), and
 * the {@link dev.svc.auth.Principal} a request acts for (who owns the A2A tasks it starts).
 */
package dev.svc.auth;

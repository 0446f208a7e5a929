/**
 * Per-tool authentication plugins ({@code allow_all}, {@code api_key} and custom ones), and the
 * {@link dev.svc.auth.Principal} a request acts for (who owns the A2A tasks it starts).
 */
package dev.svc.auth;

/** Per-tool authentication plugins: {@code allow_all}, {@code api_key} and custom ones. */
package dev.svc.auth;

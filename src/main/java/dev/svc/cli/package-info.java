/**
 * The {@code svc} command: one picocli class per command ({@code start}, {@code serve}, {@code
 * build}, {@code validate}, {@code init}, {@code upgrade}, {@code completion}), exit codes in
 * {@link dev.svc.cli.ExitCodes}, and {@link dev.svc.cli.Instance}, which wires a compiled model to
 * a runtime, the protocols and the HTTP server, reloads it and stops it. Nothing imports this
 * package.
 */
package dev.svc.cli;

/**
 * The compiler: definitions in, {@link dev.svc.compile.Compilation} out (an immutable model, or
 * every diagnostic at once). Pure apart from reading the project's files: no network, no database,
 * no environment values.
 */
package dev.svc.compile;

/**
 * Reading a project from disk: locating the root configuration, parsing YAML into positioned nodes,
 * and loading {@code .env} variables. Knows nothing of what the files mean.
 */
package dev.svc.project;

/**
 * svc's root: {@link dev.svc.SvcException}, the base of every unchecked exception of the project,
 * and {@link dev.svc.SvcVersion}. Each concern has its own package below; {@code CONTRIBUTING.md}
 * lists them and the direction of their imports.
 */
package dev.svc;

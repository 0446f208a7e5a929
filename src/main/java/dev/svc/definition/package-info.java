/**
 * What the user wrote: one record per kind of definition file, every field with the {@link
 * dev.svc.diagnostic.Origin} it was written at, and the {@link dev.svc.definition.Shapes} that the
 * reader checks files against and the editor schemas are generated from.
 */
package dev.svc.definition;

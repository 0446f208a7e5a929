package dev.svc.definition;

import dev.svc.diagnostic.Origin;

/** A value the user wrote, with the position it was written at. */
public record Located<T>(T value, Origin origin) {}

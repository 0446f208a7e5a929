package dev.svc.definition;

/** One {@code key: value} entry of an options or policy map, value as text. */
public record NamedValue(Located<String> key, Located<String> value) {}

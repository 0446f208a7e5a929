package dev.svc.model;

import java.util.Optional;

/**
 * A typed tool input.
 *
 * @param defaultValue the converted default ({@link InputType#convert})
 * @param required whether callers must supply it: neither optional nor defaulted
 */
public record Input(
    String name,
    InputType type,
    Optional<String> description,
    boolean required,
    Optional<Object> defaultValue) {}

package dev.svc.definition;

import java.util.Optional;

/**
 * One field a definition file may contain.
 *
 * @param name the key as written in YAML
 * @param type what its value must be
 * @param required whether leaving it out is an error
 * @param description one sentence for editors and docs
 * @param code the diagnostic code used when a choice or pattern is violated
 */
public record Field(
    String name, FieldType type, boolean required, String description, Optional<String> code) {

  public static Field optional(String name, FieldType type, String description) {
    return new Field(name, type, false, description, Optional.empty());
  }

  public static Field required(String name, FieldType type, String description) {
    return new Field(name, type, true, description, Optional.empty());
  }

  /** The same field, reporting violations of its choices or pattern with {@code code}. */
  public Field reportedAs(String code) {
    return new Field(name, type, required, description, Optional.of(code));
  }
}

package dev.svc.definition;

import java.util.List;
import java.util.Optional;

/**
 * The fields a mapping may hold.
 *
 * @param id a short identifier, used for schema definitions
 * @param description one sentence for editors and docs
 * @param fields the fields, in documentation order
 * @param strict whether an unknown key is an error (definition files) or a warning (root file)
 */
public record Shape(String id, String description, List<Field> fields, boolean strict) {
  public Shape {
    fields = List.copyOf(fields);
  }

  public Optional<Field> field(String name) {
    return fields.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  public List<String> fieldNames() {
    return fields.stream().map(Field::name).toList();
  }
}

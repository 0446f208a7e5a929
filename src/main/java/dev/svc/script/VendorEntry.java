package dev.svc.script;

import dev.svc.json.Jackson;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import tools.jackson.databind.json.JsonMapper;

/**
 * The generated entry of the vendor bundle: line {@code i + 1} imports package {@code i}, and the
 * module exports every package's namespace by specifier, marked as an ES module for CommonJS
 * interop. esbuild names it {@value #NAME} in its messages; a message at line {@code i + 1} is
 * about package {@code i}.
 *
 * @param packages the specifiers, in import order
 * @param importers per specifier, the script files importing it
 */
record VendorEntry(List<String> packages, SortedMap<String, SortedSet<String>> importers) {
  /** The name esbuild gives the entry ({@code --sourcefile}). */
  static final String NAME = "<svc vendor bundle>";

  private static final JsonMapper JSON = Jackson.MAPPER;

  VendorEntry {
    packages = List.copyOf(packages);
  }

  /** The package imported on {@code line} (1-based), if a package is. */
  Optional<String> packageAt(int line) {
    return line >= 1 && line <= packages.size()
        ? Optional.of(packages.get(line - 1))
        : Optional.empty();
  }

  /** The module's source, given to esbuild on its standard input. */
  String source() {
    StringBuilder entry = new StringBuilder();
    for (int i = 0; i < packages.size(); i++) {
      entry
          .append("import * as p")
          .append(i)
          .append(" from ")
          .append(JSON.writeValueAsString(packages.get(i)))
          .append(";\n");
    }
    entry.append(
        """
        const mark = (ns) => {
          const m = Object.create(null);
          for (const k of Object.keys(ns)) Object.defineProperty(m, k, { enumerable: true, get: () => ns[k] });
          return Object.defineProperty(m, "__esModule", { value: true });
        };
        export const packages = {
        """);
    for (int i = 0; i < packages.size(); i++) {
      entry
          .append("  ")
          .append(JSON.writeValueAsString(packages.get(i)))
          .append(": mark(p")
          .append(i)
          .append("),\n");
    }
    return entry.append("};\n").toString();
  }
}

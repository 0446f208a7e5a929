package dev.svc.model;

/**
 * A TypeScript (or JavaScript) function: a file and the export to call.
 *
 * @param path the file relative to the project directory, with forward slashes
 * @param exportName the export to call; {@code default} when none was named
 */
public record ScriptRef(String path, String exportName) {
  public static final String DEFAULT_EXPORT = "default";

  @Override
  public String toString() {
    return DEFAULT_EXPORT.equals(exportName) ? path : path + "#" + exportName;
  }
}

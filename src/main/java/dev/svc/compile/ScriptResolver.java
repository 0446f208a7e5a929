package dev.svc.compile;

import dev.svc.definition.Located;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.diagnostic.Suggestions;
import dev.svc.model.ScriptRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Resolves script references ({@code path} or {@code path#export}) relative to a tool directory,
 * and finds scripts by convention when none is named.
 */
final class ScriptResolver {
  static final List<String> SCRIPT_EXTENSIONS = List.of(".ts", ".mts", ".js", ".mjs");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

  private final Path projectDirectory;
  private final Diagnostics diagnostics;
  private final List<Use> used = new ArrayList<>();

  /**
   * A script that the project uses, and where: what gets bundled.
   *
   * @param origin the reference in a config file, or the tool's file for a convention
   * @param role {@code handler}, {@code input transform}, {@code output transform} or {@code auth
   *     plugin}
   */
  record Use(ScriptRef script, Origin origin, String role) {}

  ScriptResolver(Path projectDirectory, Diagnostics diagnostics) {
    this.projectDirectory = projectDirectory;
    this.diagnostics = diagnostics;
  }

  /** Resolves a reference written in a tool config; reports and returns empty when invalid. */
  Optional<ScriptRef> resolve(Located<String> reference, String toolDirectory, String role) {
    String text = reference.value().strip();
    Origin origin = reference.origin();
    int hash = text.lastIndexOf('#');
    String path = hash >= 0 ? text.substring(0, hash) : text;
    String export = hash >= 0 ? text.substring(hash + 1) : ScriptRef.DEFAULT_EXPORT;
    if (hash >= 0 && !IDENTIFIER.matcher(export).matches()) {
      diagnostics.error(
          "invalid-script-reference",
          origin,
          "`" + text + "` names the export `" + export + "`, which is not a JavaScript identifier",
          "write `path#exportName`, or just `path` for the default export");
      return Optional.empty();
    }
    if (path.isBlank()) {
      diagnostics.error(
          "invalid-script-reference", origin, "the " + role + " reference has no file path");
      return Optional.empty();
    }
    if (SCRIPT_EXTENSIONS.stream().noneMatch(path::endsWith)) {
      diagnostics.error(
          "invalid-script-reference",
          origin,
          "the " + role + " `" + path + "` is not a script",
          "scripts end in " + String.join(", ", SCRIPT_EXTENSIONS));
      return Optional.empty();
    }
    Path dir = projectDirectory.resolve(toolDirectory);
    Optional<Path> resolved = FilePaths.resolve(dir, new Located<>(path, origin), diagnostics);
    if (resolved.isEmpty()) {
      return Optional.empty();
    }
    Path file = resolved.get();
    if (!Files.isRegularFile(file)) {
      String hint =
          Suggestions.didYouMean(
                  Path.of(path).getFileName().toString(),
                  list(dir, p -> SCRIPT_EXTENSIONS.stream().anyMatch(p::endsWith)))
              .orElse("paths start at the tool directory " + toolDirectory + "/");
      diagnostics.error(
          "missing-script", origin, "the " + role + " script `" + path + "` does not exist", hint);
      return Optional.empty();
    }
    return Optional.of(use(new ScriptRef(relative(file), export), origin, role));
  }

  /** Records that {@code script} is used; returns it. */
  ScriptRef use(ScriptRef script, Origin origin, String role) {
    Use use = new Use(script, origin, role);
    if (!used.contains(use)) {
      used.add(use);
    }
    return script;
  }

  /** Every script resolved so far, in the order resolved. */
  List<Use> used() {
    return List.copyOf(used);
  }

  /**
   * A script found by convention in {@code toolDirectory}: a file named {@code exactName}, else one
   * whose name contains every word of {@code words}. Several matches are an error.
   */
  Optional<ScriptRef> byConvention(
      String toolDirectory, String exactName, List<String> words, Origin origin, String role) {
    Path dir = projectDirectory.resolve(toolDirectory);
    Path exact = dir.resolve(exactName);
    if (Files.isRegularFile(exact)) {
      return Optional.of(
          use(new ScriptRef(relative(exact), ScriptRef.DEFAULT_EXPORT), origin, role));
    }
    if (words.isEmpty()) {
      return Optional.empty();
    }
    List<String> matches =
        list(
            dir,
            name ->
                name.endsWith(".ts")
                    && words.stream().allMatch(w -> name.toLowerCase().contains(w)));
    if (matches.size() > 1) {
      diagnostics.error(
          "ambiguous-script",
          origin,
          "several files could be the " + role + " by convention: " + String.join(", ", matches),
          "name the one to use in `mappers`");
      return Optional.empty();
    }
    return matches.stream()
        .findFirst()
        .map(name ->
            use(
                new ScriptRef(relative(dir.resolve(name)), ScriptRef.DEFAULT_EXPORT),
                origin,
                role));
  }

  private String relative(Path file) {
    return projectDirectory
        .relativize(file.toAbsolutePath().normalize())
        .toString()
        .replace('\\', '/');
  }

  private static List<String> list(Path dir, Predicate<String> filter) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(Files::isRegularFile)
          .map(p -> p.getFileName().toString())
          .filter(filter)
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }
}

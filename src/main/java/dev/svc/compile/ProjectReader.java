package dev.svc.compile;

import dev.svc.definition.AdapterDefinition;
import dev.svc.definition.AgentDefinition;
import dev.svc.definition.AgentTestsDefinition;
import dev.svc.definition.ContentTestsDefinition;
import dev.svc.definition.DefinitionReader;
import dev.svc.definition.Located;
import dev.svc.definition.PromptDefinition;
import dev.svc.definition.ResourceDefinition;
import dev.svc.definition.RootDefinition;
import dev.svc.definition.ToolDefinition;
import dev.svc.definition.ToolTestsDefinition;
import dev.svc.diagnostic.Diagnostics;
import dev.svc.diagnostic.Origin;
import dev.svc.project.Project;
import dev.svc.project.YamlNode;
import dev.svc.project.YamlParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Reads the root configuration, discovers definition files as the spec's layout table says and
 * reads each one. Files are visited in sorted path order so diagnostics are stable.
 */
final class ProjectReader {
  static final String DEFINITION_EXTENSION = ".terse";
  static final String CONFIG_FILE = "config.terse";
  static final String TESTS_FILE = "tests.terse";
  static final String PROMPT_TESTS_EXTENSION = ".tests.terse";

  private final Project project;
  private final Diagnostics diagnostics;
  private final DefinitionReader reader;
  private int unreadableFiles;
  private final Set<String> unreadableAdapters = new TreeSet<>();
  private final Set<String> unreadableTools = new TreeSet<>();
  private boolean unreadableResource;
  private final Set<Path> reportedLoops = new TreeSet<>();
  private final Set<Path> reportedDangling = new TreeSet<>();

  ProjectReader(Project project, Diagnostics diagnostics) {
    this.project = project;
    this.diagnostics = diagnostics;
    this.reader = new DefinitionReader(diagnostics);
  }

  /** Reads everything; empty when the root configuration cannot be parsed at all. */
  Optional<Definitions> read() {
    Optional<YamlNode> rootNode = rootText().flatMap(text -> parse(text, project.root().label()));
    if (rootNode.isEmpty()) {
      return Optional.empty();
    }
    RootDefinition root = reader.root(rootNode.get());
    String base =
        root.root()
            .filter(r -> FilePaths.resolve(project.directory(), r, diagnostics).isPresent())
            .map(Located::value)
            .orElse("app");
    Path baseDir = project.directory().resolve(base).normalize();
    if (root.root().isPresent() && !Files.isDirectory(baseDir)) {
      diagnostics.warning(
          "missing-directory",
          root.root().get().origin(),
          "directory `" + base + "` does not exist; nothing is discovered there");
    }

    Path adaptersDir = directory(baseDir, root.adaptersDirectory(), "adapters");
    Path toolsDir = directory(baseDir, root.toolsDirectory(), "tools");
    Path promptsDir = directory(baseDir, root.promptsDirectory(), "prompts");
    Path resourcesDir = directory(baseDir, root.resourcesDirectory(), "resources");
    Path agentsDir = directory(baseDir, root.agentsDirectory(), "agents");

    List<AdapterDefinition> adapters =
        each(
            filesIn(adaptersDir, false, ProjectReader::isDefinitionFile),
            (node, file) -> reader.adapter(node, stem(file)),
            file -> unreadableAdapters.add(stem(file)));
    List<ToolDefinition> tools =
        each(
            configFiles(toolsDir, "tool"),
            (node, file) -> reader.tool(node, project.relative(file.getParent()), dirName(file)),
            file -> unreadableTools.add(dirName(file)));
    List<ToolTestsDefinition> toolTests =
        each(
            filesIn(toolsDir, false, Files::isDirectory).stream()
                .map(dir -> dir.resolve(TESTS_FILE))
                .filter(Files::isRegularFile)
                .toList(),
            (node, file) ->
                reader.toolTests(
                    node,
                    project.relative(file),
                    project.relative(file.getParent()),
                    dirName(file)),
            file -> {});
    List<PromptDefinition> prompts = new ArrayList<>(root.inlinePrompts());
    prompts.addAll(
        each(
            filesIn(
                promptsDir,
                true,
                p ->
                    p.toString().endsWith(DEFINITION_EXTENSION)
                        && !p.toString().endsWith(PROMPT_TESTS_EXTENSION)),
            (node, file) ->
                reader.prompt(node, project.relative(file.getParent()), Optional.of(stem(file))),
            file -> {}));
    List<ResourceDefinition> resources = new ArrayList<>(root.inlineResources());
    resources.addAll(root.inlineTemplates());
    resources.addAll(
        each(
            filesIn(resourcesDir, true, p -> p.getFileName().toString().equals(CONFIG_FILE)),
            (node, file) ->
                reader.resource(
                    node, project.relative(file.getParent()), Optional.of(dirName(file))),
            file -> unreadableResource = true));
    List<ContentTestsDefinition> contentTests = new ArrayList<>();
    contentTests.addAll(
        each(
            filesIn(promptsDir, true, p -> p.toString().endsWith(PROMPT_TESTS_EXTENSION)),
            (node, file) -> {
              String name = file.getFileName().toString();
              return reader.contentTests(
                  ContentTestsDefinition.Kind.PROMPT,
                  node,
                  project.relative(file),
                  project.relative(file.getParent()),
                  name.substring(0, name.length() - PROMPT_TESTS_EXTENSION.length()));
            },
            file -> {}));
    contentTests.addAll(
        each(
            filesIn(resourcesDir, true, p -> p.getFileName().toString().equals(TESTS_FILE)),
            (node, file) ->
                reader.contentTests(
                    ContentTestsDefinition.Kind.RESOURCE,
                    node,
                    project.relative(file),
                    project.relative(file.getParent()),
                    ""),
            file -> {}));
    List<AgentTestsDefinition> agentTests =
        each(
            filesIn(agentsDir, false, Files::isDirectory).stream()
                .map(dir -> dir.resolve(TESTS_FILE))
                .filter(Files::isRegularFile)
                .toList(),
            (node, file) ->
                reader.agentTests(
                    node,
                    project.relative(file),
                    project.relative(file.getParent()),
                    dirName(file)),
            file -> {});
    List<AgentDefinition> agents =
        each(
            configFiles(agentsDir, "agent"),
            (node, file) -> reader.agent(node, dirName(file)),
            file -> {});

    return Optional.of(
        new Definitions(
            root,
            base,
            adapters,
            tools,
            prompts,
            resources,
            agents,
            plugins(baseDir.resolve("plugins")),
            new Definitions.Unreadable(
                unreadableFiles, unreadableAdapters, unreadableTools, unreadableResource),
            toolTests,
            contentTests,
            agentTests));
  }

  /** The root configuration's text; none when the file cannot be read (its error is reported). */
  private Optional<String> rootText() {
    return switch (project.root()) {
      case Project.InlineRoot inline -> Optional.of(inline.yaml());
      case Project.RootFile file -> readText(file.path());
    };
  }

  private Path directory(Path baseDir, Optional<Located<String>> override, String fallback) {
    Optional<Located<String>> valid =
        override.filter(o -> FilePaths.resolve(baseDir, o, diagnostics).isPresent());
    Path dir = baseDir.resolve(valid.map(Located::value).orElse(fallback)).normalize();
    valid
        .filter(o -> !Files.isDirectory(dir))
        .ifPresent(o ->
            diagnostics.warning(
                "missing-directory",
                o.origin(),
                "directory `"
                    + project.relative(dir)
                    + "` does not exist; nothing is discovered there"));
    return dir;
  }

  /** {@code dir/*}{@code /config.terse}; a sub-directory without one gets a warning. */
  private List<Path> configFiles(Path dir, String kind) {
    List<Path> files = new ArrayList<>();
    for (Path stray : filesIn(dir, false, ProjectReader::isDefinitionFile)) {
      diagnostics.warning(
          "misplaced-file",
          Origin.ofFile(project.relative(stray)),
          article(kind)
              + " "
              + kind
              + " is a directory holding "
              + CONFIG_FILE
              + "; this file is ignored",
          "move it to " + project.relative(dir) + "/" + stem(stray) + "/" + CONFIG_FILE);
    }
    for (Path sub : filesIn(dir, false, Files::isDirectory)) {
      Path config = sub.resolve(CONFIG_FILE);
      if (Files.isRegularFile(config)) {
        files.add(config);
      } else if (isDanglingLink(config)) {
        reportDangling(config);
      } else {
        diagnostics.warning(
            "missing-config",
            Origin.ofFile(project.relative(sub)),
            "directory `"
                + project.relative(sub)
                + "` has no "
                + CONFIG_FILE
                + ", so it is not "
                + article(kind)
                + " "
                + kind,
            "add " + CONFIG_FILE + " or move the directory out of " + project.relative(dir));
      }
    }
    return files;
  }

  /** "a tool", "an agent". */
  private static String article(String noun) {
    return "aeiou".indexOf(noun.charAt(0)) >= 0 ? "an" : "a";
  }

  private Map<String, String> plugins(Path dir) {
    Map<String, String> plugins = new TreeMap<>();
    for (Path file : filesIn(dir, false, p -> p.toString().endsWith(".ts"))) {
      plugins.put(stem(file), project.relative(file));
    }
    return plugins;
  }

  /**
   * Reads each file; {@code unreadable} learns of the files that cannot be parsed (their error is
   * reported), so that the names they would have defined are not reported again as unknown.
   */
  private <T> List<T> each(
      List<Path> files, BiFunction<YamlNode, Path, T> read, Consumer<Path> unreadable) {
    List<T> definitions = new ArrayList<>();
    for (Path file : files) {
      readText(file)
          .flatMap(text -> parse(text, project.relative(file)))
          .ifPresentOrElse(
              node -> {
                T definition = read.apply(node, file); // says so when the file is no mapping
                if (holdsDefinition(node)) {
                  definitions.add(definition);
                } else {
                  // a list or a lone value: its one error, not also each field it lacks
                  unreadableFiles++;
                  unreadable.accept(file);
                }
              },
              () -> {
                unreadableFiles++;
                unreadable.accept(file);
              });
    }
    return definitions;
  }

  /** A mapping, or an empty file (whose missing fields are the errors to report). */
  private static boolean holdsDefinition(YamlNode node) {
    return node instanceof YamlNode.Mapping
        || (node instanceof YamlNode.Scalar scalar && scalar.isNull());
  }

  private Optional<YamlNode> parse(String text, String label) {
    return YamlParser.parse(text, label, diagnostics);
  }

  /**
   * The file's text; none when it is not UTF-8 or larger than a definition file may be (an error,
   * and nothing else said of the file). A large file is refused by its size, unread: a file of 3
   * GiB ended {@code svc validate} with an {@code OutOfMemoryError} and its stack trace.
   */
  private Optional<String> readText(Path file) {
    try {
      long size = Files.size(file);
      if (size > YamlParser.MAX_FILE_BYTES) {
        diagnostics.error(
            "yaml-syntax",
            Origin.ofFile(project.relative(file)),
            "the file holds "
                + size / (1024 * 1024)
                + " MiB; a definition file may hold at most "
                + YamlParser.MAX_CODE_POINTS
                + " characters",
            "keep definitions small; serve large content from a resource `file`");
        return Optional.empty();
      }
      return Optional.of(Files.readString(file));
    } catch (MalformedInputException e) {
      diagnostics.error(
          "invalid-encoding", Origin.ofFile(project.relative(file)), "file is not UTF-8 text");
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /**
   * Entries of {@code dir} (recursively if asked: regular files only, outside hidden folders) that
   * pass {@code filter}, sorted by path.
   */
  private List<Path> filesIn(Path dir, boolean recursive, Predicate<Path> filter) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    if (!recursive) {
      try (Stream<Path> entries = Files.list(dir)) {
        return entries
            .filter(p -> !isHidden(dir.relativize(p)))
            .peek(this::reportIfDanglingDefinition)
            .filter(filter)
            .sorted()
            .toList();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + dir, e);
      }
    }
    // links are followed (a Kubernetes ConfigMap volume is made of them); a link to a folder that
    // holds it is reported and not followed (the walk stopped on it with an exception before)
    List<Path> files = new ArrayList<>();
    try {
      Files.walkFileTree(
          dir,
          Set.of(FileVisitOption.FOLLOW_LINKS),
          Integer.MAX_VALUE,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path sub, BasicFileAttributes attributes) {
              return sub.equals(dir) || !isHidden(dir.relativize(sub))
                  ? FileVisitResult.CONTINUE
                  : FileVisitResult.SKIP_SUBTREE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              if (attributes.isSymbolicLink() && !isHidden(dir.relativize(file))) {
                reportIfDanglingDefinition(file); // followed links show their target's kind
              }
              if (attributes.isRegularFile()
                  && !isHidden(dir.relativize(file))
                  && filter.test(file)) {
                files.add(file);
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof FileSystemLoopException && !isHidden(dir.relativize(file))) {
                reportLoop(file);
                return FileVisitResult.CONTINUE;
              }
              throw e;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
    files.sort(null);
    return files;
  }

  /** A definition file that is a link to nothing: said, not skipped without a word. */
  private void reportIfDanglingDefinition(Path file) {
    if (file.getFileName().toString().endsWith(DEFINITION_EXTENSION) && isDanglingLink(file)) {
      reportDangling(file);
    }
  }

  private static boolean isDanglingLink(Path file) {
    return Files.isSymbolicLink(file) && !Files.exists(file);
  }

  /** A link whose target does not exist: reported once, however many walks meet it. */
  private void reportDangling(Path link) {
    if (reportedDangling.add(link)) {
      String target;
      try {
        target = Files.readSymbolicLink(link).toString();
      } catch (IOException e) {
        target = "a path that cannot be read";
      }
      diagnostics.warning(
          "dangling-link",
          Origin.ofFile(project.relative(link)),
          "`"
              + project.relative(link)
              + "` is a link to "
              + target
              + ", which does not exist, so it is not read",
          "point the link at an existing file, or remove it");
    }
  }

  /** A link to a folder that holds it: reported once, however many walks meet it. */
  private void reportLoop(Path link) {
    if (reportedLoops.add(link)) {
      diagnostics.warning(
          "link-loop",
          Origin.ofFile(project.relative(link)),
          "`"
              + project.relative(link)
              + "` is a link to a folder that holds it, so it is not followed",
          "remove the link, or point it at a folder outside this one");
    }
  }

  private static boolean isHidden(Path relative) {
    for (Path part : relative) {
      String name = part.toString();
      if (name.startsWith(".") || name.equals("node_modules")) {
        return true;
      }
    }
    return false;
  }

  private static boolean isDefinitionFile(Path file) {
    return file.toString().endsWith(DEFINITION_EXTENSION) && Files.isRegularFile(file);
  }

  private static String stem(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  private static String dirName(Path configFile) {
    return configFile.getParent().getFileName().toString();
  }
}

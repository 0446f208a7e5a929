package dev.svc.cli;

import static java.nio.file.StandardOpenOption.CREATE_NEW;

import dev.svc.compile.Compilation;
import dev.svc.compile.Compiler;
import dev.svc.project.Environment;
import dev.svc.project.Project;
import dev.svc.script.TypeDeclarations;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code svc init}: writes a new project that validates and runs, never overwriting a file. */
@Command(
    name = "init",
    mixinStandardHelpOptions = true,
    description = {
      "Create a new project.",
      "Writes .svc, a hello-world TypeScript tool with its tests, skills for AI coding agents",
      "(.agents/skills/), a tsconfig.json, the tools' TypeScript types (.svc-types/) and a",
      ".gitignore (.env, node_modules/, dist/, .svc-types/). Never overwrites: if any file",
      "exists, nothing is written; an existing .gitignore or tsconfig.json is kept."
    })
final class InitCommand implements Callable<Integer> {
  /** Project files written, each with the resource it comes from. */
  static final List<String> FILES =
      List.of(
          ".svc",
          "app/tools/hello-world/config.terse",
          "app/tools/hello-world/handler.ts",
          "app/tools/hello-world/tests.terse",
          ".agents/skills/svc-docs/SKILL.md",
          ".agents/skills/svc-agents/SKILL.md");

  /**
   * Written beside {@link #FILES} unless the folder has one already (a project inside an existing
   * repository keeps its own); an existing one does not stop {@code init}.
   */
  static final String GITIGNORE = ".gitignore";

  /** Like {@link #GITIGNORE}: for editors, so that scripts see the sandbox's and tools' types. */
  static final String TSCONFIG = "tsconfig.json";

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "FOLDER",
      description = "Where to create the project (default: the working directory).")
  String folder;

  private final CliContext context;

  InitCommand(CliContext context) {
    this.context = context;
  }

  /**
   * Whether something is at {@code path}, a symbolic link to nothing included. {@link Files#exists}
   * follows links, so a dangling {@code .svc -> ~/somewhere/new-file} counted as free and init
   * wrote its file through the link, outside the folder; files are also opened with {@code
   * CREATE_NEW}, which never follows a link, should one appear in between.
   */
  private static boolean present(Path path) {
    return Files.exists(path, LinkOption.NOFOLLOW_LINKS);
  }

  @Override
  public Integer call() {
    Path target =
        folder == null
            ? context.workingDirectory()
            : context.workingDirectory().resolve(folder).normalize();
    if (Files.exists(target) && !Files.isDirectory(target)) {
      context.err().println("error: " + target + " exists and is not a directory");
      return ExitCodes.FAILED;
    }
    List<String> existing = FILES.stream().filter(f -> present(target.resolve(f))).toList();
    if (!existing.isEmpty()) {
      context.err().println("error: svc init never overwrites files, and these exist already:");
      existing.forEach(f -> context.err().println("  " + target.resolve(f)));
      context.err().println("nothing was written; remove them or choose another folder");
      return ExitCodes.FAILED;
    }
    String name = serviceName(target.toAbsolutePath().getFileName());
    Map<String, String> contents = new LinkedHashMap<>();
    for (String file : FILES) {
      contents.put(file, template(file).replace("${name}", name));
    }
    try {
      for (Map.Entry<String, String> entry : contents.entrySet()) {
        Path path = target.resolve(entry.getKey());
        Files.createDirectories(path.getParent());
        Files.writeString(path, entry.getValue(), StandardCharsets.UTF_8, CREATE_NEW);
        context.out().println("  created " + entry.getKey());
      }
      Path gitignore = target.resolve(GITIGNORE);
      if (present(gitignore)) {
        context
            .out()
            .println(
                "  kept the existing " + GITIGNORE + " (make sure it lists .env, .svc-types/)");
      } else {
        Files.writeString(gitignore, template(GITIGNORE), StandardCharsets.UTF_8, CREATE_NEW);
        context.out().println("  created " + GITIGNORE);
      }
      Path tsconfig = target.resolve(TSCONFIG);
      if (present(tsconfig)) {
        context.out().println("  kept the existing " + TSCONFIG);
      } else {
        Files.writeString(tsconfig, template(TSCONFIG), StandardCharsets.UTF_8, CREATE_NEW);
        context.out().println("  created " + TSCONFIG);
      }
      writeTypes(target);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the project in " + target, e);
    }
    String cd =
        folder == null
            ? ""
            : "cd "
                + (folder.matches("[A-Za-z0-9_./-]+")
                    ? folder
                    : "'" + folder.replace("'", "'\\''") + "'")
                + " && ";
    context.out().println();
    context.out().println("Project `" + name + "` is ready. Next:");
    context.out().println("  " + cd + "svc validate     # check it");
    context.out().println("  " + cd + "svc test         # run the tool's tests");
    context.out().println("  " + cd + "svc start        # serve it on http://127.0.0.1:8080/mcp");
    context.out().flush();
    return ExitCodes.OK;
  }

  /** The new project's TypeScript declarations, so that an editor opened now knows its types. */
  private void writeTypes(Path target) {
    Project project = new Project(target, new Project.RootFile(target.resolve(".svc"), ".svc"));
    Environment environment = Environment.load(target, target, context.environment());
    if (Compiler.compile(project, environment) instanceof Compilation.Success success) {
      ProjectCompiler.writeTypes(target, success.model());
      context.out().println("  created " + TypeDeclarations.DIRECTORY + "/ (git-ignored)");
    }
  }

  /** A valid service name from a folder name: lower-case, other characters become {@code -}. */
  static String serviceName(Path folderName) {
    String raw = folderName == null ? "" : folderName.toString().toLowerCase(Locale.ROOT);
    String cleaned =
        raw.replaceAll("[^a-z0-9_-]+", "-").replaceAll("^[^a-z]+", "").replaceAll("-+$", "");
    return cleaned.isEmpty() ? "my-service" : cleaned;
  }

  private static String template(String file) {
    String resource =
        "/dev/svc/cli/init/"
            + switch (file) {
              case ".svc" -> "svc.yaml";
              case GITIGNORE -> "gitignore"; // a resource named .gitignore would ignore files here
              default -> file.replace(".agents/", "agents/");
            };
    try (InputStream in = InitCommand.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing scaffold resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

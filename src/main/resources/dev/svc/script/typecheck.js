// Type-checks a project's scripts with the TypeScript compiler (`ts`, loaded before this file) in
// a virtual file system: every file is read through `svcFiles`, which the Java side answers from
// the project directory (scripts, node_modules type declarations), the generated declarations and
// TypeScript's own lib files. Nothing else of the host is reachable.
//
// `svcCheck(request)` takes a JSON request {roots, libs, options} and returns a JSON array of
// diagnostics {file, line, column, code, message, category}, 1-based, columns in UTF-16 units.
(function () {
  "use strict";
  const files = globalThis.svcFiles;
  const cache = new Map();

  function text(name) {
    if (!cache.has(name)) cache.set(name, files.read(name));
    return cache.get(name);
  }

  function flatten(message) {
    return ts.flattenDiagnosticMessageText(message, "\n").split("\n")
      .map((line) => line.trim()).filter((line) => line !== "").join(" ")
      .split("/project/").join("");
  }

  // where the export a check line names is declared, and what the check is about
  function relocate(program, check, result) {
    const file = program.getSourceFile(check.file);
    const checker = program.getTypeChecker();
    const module = file && checker.getSymbolAtLocation(file);
    const symbol = module && checker.getExportsOfModule(module).find((s) => s.escapedName === check.name);
    const declaration = symbol && symbol.declarations && symbol.declarations[0];
    const at = declaration || file;
    if (at) {
      const source = at.getSourceFile();
      const position = source.getLineAndCharacterOfPosition(at === file ? 0 : at.getStart(source));
      result.file = source.fileName;
      result.line = position.line + 1;
      result.column = position.character + 1;
    }
    const name = check.name === "default" ? "the default export" : "the export `" + check.name + "`";
    result.message = name + " is the " + check.role + " but does not have its type: " + result.message;
  }

  function toResult(d, program, req) {
    const result = {
      file: "", line: 0, column: 0, code: d.code,
      message: flatten(d.messageText),
      category: d.category === ts.DiagnosticCategory.Error ? "error" : "warning",
    };
    if (d.file && d.start !== undefined) {
      const at = d.file.getLineAndCharacterOfPosition(d.start);
      result.file = d.file.fileName;
      result.line = at.line + 1;
      result.column = at.character + 1;
      if (d.file.fileName === req.checksFile) {
        const check = req.checks.find((c) => c.line === result.line);
        if (check) relocate(program, check, result);
      }
    }
    return result;
  }

  globalThis.svcCheck = function (request) {
    const req = JSON.parse(request);
    const options = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: req.libs,
      strict: true,
      noImplicitAny: false,
      noEmit: true,
      allowJs: true,
      checkJs: false,
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
      esModuleInterop: true,
      skipLibCheck: true,
      types: [],
    };
    const host = {
      getSourceFile(name, languageVersion) {
        const source = text(name);
        return source === null ? undefined : ts.createSourceFile(name, source, languageVersion, false);
      },
      getDefaultLibFileName: () => "/lib/lib.d.ts",
      getDefaultLibLocation: () => "/lib",
      writeFile() {},
      getCurrentDirectory: () => "/project",
      getDirectories: () => [],
      getCanonicalFileName: (name) => name,
      useCaseSensitiveFileNames: () => true,
      getNewLine: () => "\n",
      fileExists: (name) => text(name) !== null,
      readFile: (name) => { const t = text(name); return t === null ? undefined : t; },
      directoryExists: (name) => files.isDirectory(name),
      realpath: (name) => name,
    };
    const program = ts.createProgram({ rootNames: req.roots, options, host });
    const found = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
    ];
    for (const file of program.getSourceFiles()) {
      if (file.fileName.startsWith("/lib/") || file.fileName.includes("/node_modules/")) continue;
      found.push(...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file));
    }
    return JSON.stringify(found.map((d) => toResult(d, program, req)));
  };
})();

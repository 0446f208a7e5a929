// Validates Kubernetes manifests (multi-document YAML, as `helm template` writes them) offline,
// against the API types of kubernetes-models (Kubernetes 1.35's OpenAPI) and of the Prometheus
// Operator (ServiceMonitor):
//
//   node validate.mjs rendered.yaml [more.yaml ...]
//
// Two checks, because neither alone is enough:
// 1. the JSON-schema validation of kubernetes-models: types, enums, formats, required fields
//    (`containerPort: "eighty"` fails);
// 2. TypeScript's excess-property check against the same models' interfaces: unknown fields
//    (`livenessProbez:`), which the JSON schemas let through, fail, as with kubeconform -strict.
// A document of a kind it does not know is an error, never skipped. Exit 0 when every document
// passes, 1 with one line per problem otherwise, 2 for a bad command line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { parseAllDocuments } from "yaml";

const here = dirname(fileURLToPath(import.meta.url));

/** Where the model of an apiVersion lives; "v1" is the core group. */
function modulePath(apiVersion, kind) {
  if (apiVersion.startsWith("monitoring.coreos.com/")) {
    return `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`;
  }
  return `kubernetes-models/${apiVersion}/${kind}`;
}

/** JSON with two-space indentation, and the JSON path of the value on each line. */
function printWithPaths(value) {
  const lines = [];
  const paths = [];
  const emit = (text, path) => {
    lines.push(text);
    paths.push(path);
  };
  const walk = (node, path, indent, prefix, suffix) => {
    const pad = "  ".repeat(indent);
    if (Array.isArray(node) && node.length > 0) {
      emit(`${pad}${prefix}[`, path);
      node.forEach((item, i) =>
        walk(item, `${path}[${i}]`, indent + 1, "", i < node.length - 1 ? "," : ""),
      );
      emit(`${pad}]${suffix}`, path);
    } else if (node !== null && typeof node === "object" && Object.keys(node).length > 0) {
      emit(`${pad}${prefix}{`, path);
      const keys = Object.keys(node);
      keys.forEach((key, i) =>
        walk(
          node[key],
          path === "" ? key : `${path}.${key}`,
          indent + 1,
          `${JSON.stringify(key)}: `,
          i < keys.length - 1 ? "," : "",
        ),
      );
      emit(`${pad}}${suffix}`, path);
    } else {
      emit(`${pad}${prefix}${JSON.stringify(node)}${suffix}`, path);
    }
  };
  walk(value, "", 0, "", "");
  return { text: lines.join("\n"), paths };
}

function readDocuments(files) {
  const documents = [];
  const problems = [];
  for (const file of files) {
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      problems.push(`${file}: cannot read: ${e.message}`);
      continue;
    }
    parseAllDocuments(text).forEach((doc, index) => {
      const where = `${file} document ${index + 1}`;
      if (doc.errors.length > 0) {
        problems.push(`${where}: not YAML: ${doc.errors[0].message}`);
        return;
      }
      const value = doc.toJS();
      if (value === null || value === undefined) {
        return; // an empty document (a template that rendered nothing)
      }
      if (typeof value !== "object" || Array.isArray(value)) {
        problems.push(`${where}: not a Kubernetes object`);
        return;
      }
      const { apiVersion, kind } = value;
      if (typeof apiVersion !== "string" || typeof kind !== "string") {
        problems.push(`${where}: no apiVersion or kind`);
        return;
      }
      const name = value.metadata?.name ?? "(no name)";
      documents.push({ value, label: `${where} (${kind} ${name})`, apiVersion, kind });
    });
  }
  return { documents, problems };
}

async function validateSchemas(documents, problems) {
  for (const doc of documents) {
    let Model;
    try {
      const module = await import(modulePath(doc.apiVersion, doc.kind));
      Model = module[doc.kind];
    } catch {
      Model = undefined;
    }
    if (typeof Model !== "function") {
      problems.push(`${doc.label}: unknown kind ${doc.apiVersion}/${doc.kind}`);
      doc.known = false;
      continue;
    }
    doc.known = true;
    try {
      new Model(doc.value).validate();
    } catch (e) {
      const details = Array.isArray(e.errors)
        ? e.errors.map((err) => `${err.instancePath || "/"} ${err.message}`).join("; ")
        : e.message;
      problems.push(`${doc.label}: ${details}`);
    }
  }
}

function validateFields(documents, problems) {
  const known = documents.filter((doc) => doc.known);
  if (known.length === 0) {
    return;
  }
  // inside this package, so that the imports resolve to its node_modules
  const work = mkdtempSync(join(here, ".check-"));
  try {
    const sources = known.map((doc, i) => {
      const { text, paths } = printWithPaths(doc.value);
      const header = `import type { I${doc.kind} } from ${JSON.stringify(modulePath(doc.apiVersion, doc.kind))};\nexport const document: I${doc.kind} = `;
      const file = join(work, `doc${i}.ts`);
      writeFileSync(file, `${header}${text};\n`);
      return { file, doc, paths, headerLines: 1 };
    });
    const program = ts.createProgram(
      sources.map((s) => s.file),
      {
        noEmit: true,
        strict: true,
        skipLibCheck: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: [],
      },
    );
    for (const source of sources) {
      const sourceFile = program.getSourceFile(source.file);
      const diagnostics = [
        ...program.getSyntacticDiagnostics(sourceFile),
        ...program.getSemanticDiagnostics(sourceFile),
      ];
      for (const d of diagnostics) {
        const message = ts.flattenDiagnosticMessageText(d.messageText, " ");
        let path = "";
        if (d.start !== undefined) {
          const { line } = sourceFile.getLineAndCharacterOfPosition(d.start);
          path = source.paths[line - source.headerLines] ?? "";
        }
        problems.push(`${source.doc.label}: ${path ? `${path}: ` : ""}${message}`);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node validate.mjs FILE.yaml...");
  process.exit(2);
}
const { documents, problems } = readDocuments(files);
await validateSchemas(documents, problems);
validateFields(documents, problems);
for (const problem of problems) {
  console.error(`invalid: ${problem}`);
}
const shown = files.map((f) => relative(process.cwd(), f) || f).join(", ");
console.log(
  `validate: ${documents.length} objects in ${shown}: ${problems.length === 0 ? "valid" : `${problems.length} problem(s)`}`,
);
process.exit(problems.length === 0 ? 0 : 1);

// Module hooks that let a plain `node` child process run this package's TypeScript sources
// (Node 20 cannot strip types itself). Used by the crash tests only.
import { readFile } from "node:fs/promises";
import ts from "typescript";

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  const source = await readFile(new URL(url), "utf8");
  const out = ts.transpileModule(source, {
    fileName: new URL(url).pathname,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true, sourceMap: false },
  });
  return { format: "module", source: out.outputText, shortCircuit: true };
}

/**
 * The commands of the root README, read from the README itself (never a copy), so that the test
 * that runs them (quick-start.e2e.test.ts) follows the document a newcomer follows.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (the workspace's). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/** The text of the `## title` section of `markdown`, up to the next level-2 heading. */
export function section(markdown: string, title: string): string {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.trim() === `## ${title}`);
  if (start < 0) throw new Error(`no "## ${title}" section`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith("## "));
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

/** The contents of the ```sh fenced blocks of `text`, in order. */
export function shellBlocks(text: string): string[] {
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** The command lines of a block: without blank lines, comment-only lines and trailing `# ...` comments. */
export function commandLines(block: string): string[] {
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** What a newcomer runs, in the README's order. */
export interface QuickStart {
  /** Set-up's first line split at `&&`: the install (`npm ci`) and the start (`npm start`). */
  install: string;
  start: string;
  /** The Quick start's first block: the foreground command (its other lines are sample output). */
  foreground: string;
  /** The Quick start's second block, run as one shell script in a second terminal. */
  secondTerminal: string;
}

/** Reads the Set-up and Quick start commands from `markdown` (the root README's text). */
export function quickStart(markdown: string): QuickStart {
  const [setup] = shellBlocks(section(markdown, "Set-up"));
  const [first, second] = shellBlocks(section(markdown, "Quick start"));
  if (setup === undefined || first === undefined || second === undefined) throw new Error("the README lost a command block");
  const [install, start, ...rest] = commandLines(setup)[0]!
    .split("&&")
    .map((c) => c.trim());
  const foreground = commandLines(first);
  if (install === undefined || start === undefined || rest.length > 0 || foreground.length !== 1)
    throw new Error("the README's Set-up or Quick start changed shape: update readme.ts with it");
  return { install, start, foreground: foreground[0]!, secondTerminal: second };
}

/** The root README's Quick start. */
export function readmeQuickStart(): QuickStart {
  return quickStart(readFileSync(path.join(repoRoot, "README.md"), "utf8"));
}

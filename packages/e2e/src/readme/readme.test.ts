import { describe, expect, it } from "vitest";
import { commandLines, quickStart, readmeQuickStart, section, shellBlocks } from "./readme.ts";

const doc = [
  "# x",
  "## Set-up",
  "```sh",
  "npm ci && npm start   # builds",
  "npm test",
  "```",
  "## Quick start",
  "```sh",
  "npm start",
  "# servicenet ready",
  "```",
  "text",
  "```sh",
  "export A=1",
  "kubectl get svc -o wide            # a comment",
  "```",
  "## Next",
  "```sh",
  "later",
  "```",
].join("\n");

describe("README parsing", () => {
  it("cuts a section at the next level-2 heading", () => {
    expect(section(doc, "Quick start")).not.toContain("later");
    expect(() => section(doc, "Nope")).toThrow(/no "## Nope" section/);
  });

  it("reads sh blocks and their command lines", () => {
    expect(shellBlocks(section(doc, "Quick start"))).toHaveLength(2);
    expect(commandLines("npm start\n# out\n\nkubectl get svc   # c\n")).toEqual(["npm start", "kubectl get svc"]);
  });

  it("splits Set-up's first line and keeps the second terminal's block whole", () => {
    expect(quickStart(doc)).toEqual({
      install: "npm ci",
      start: "npm start",
      foreground: "npm start",
      secondTerminal: "export A=1\nkubectl get svc -o wide            # a comment\n",
    });
  });

  it("reads the root README", () => {
    const q = readmeQuickStart();
    expect(q.install).toBe("npm ci");
    expect(q.start).toBe(q.foreground);
    expect(q.secondTerminal).toContain("npx servicenet-kubectl");
  });
});

/**
 * The servicenet commands' help has the layout kubectl's cobra templates print
 * (staging/src/k8s.io/kubectl/pkg/util/templates/templates.go MainUsageTemplate
 * and pflag's FlagUsages as kubectl formats them): checked rule by rule on real
 * kubectl 1.33's `expose --help` too, so the rules describe kubectl, not us.
 */
import { execFileSync } from "node:child_process";
import { findKubectl } from "@servicenet/testing";
import { describe, expect, it } from "vitest";
import { serveHelp, traceHelp } from "./trace-help.ts";

/** Every way `text` departs from kubectl's command help layout. */
function layoutProblems(text: string): string[] {
  const problems: string[] = [];
  const sections = text.split(/\n(?=Examples:\n|Options:\n|Usage:\n)/);
  const names = sections.slice(1).map((s) => s.slice(0, s.indexOf("\n")));
  if (names.join(",") !== "Examples:,Options:,Usage:") problems.push(`sections ${names.join(",")}`);
  const [long = "", examples = "", options = "", usage = ""] = sections;
  const paragraphs = long.replace(/\n+$/, "").split("\n\n");
  if (!/^[A-Z].*\.$/.test(paragraphs[0] ?? "")) problems.push(`first line "${paragraphs[0] ?? ""}" is not one sentence`);
  for (const p of paragraphs.slice(1)) if (!p.startsWith(" ")) problems.push(`paragraph not indented by one space: ${p.slice(0, 40)}`);
  for (const l of examples.split("\n").slice(1, -1)) if (!/^  (# |kubectl |$)/.test(l) && l !== "") problems.push(`example line "${l}"`);
  const flags = options.split("\n\n").map((f) => f.replace(/^Options:\n/, ""));
  const longNames: string[] = [];
  for (const f of flags.filter((x) => x.trim() !== "")) {
    const m = /^    (?:-\w, )?--([a-z0-9-]+)=(?:'[^']*'|\[[^\]]*\]|true|false|-?\d+|\d+s):\n\t\S/.exec(f);
    if (m === null) problems.push(`flag entry "${f.slice(0, 60)}"`);
    else longNames.push(m[1] ?? "");
  }
  if ([...longNames].sort().join(",") !== longNames.join(",")) problems.push(`flags not sorted: ${longNames.join(",")}`);
  if (
    !/^Usage:\n  kubectl [^\n]+ \[options\]\n\nUse "kubectl options" for a list of global command-line options \(applies to all commands\)\.\n$/.test(
      usage,
    )
  )
    problems.push(`usage "${usage}"`);
  return problems;
}

const kubectl = findKubectl("1.33");

describe("servicenet help layout", () => {
  it.skipIf(kubectl === null)("the rules hold for real kubectl 1.33's expose --help", () => {
    const env = { ...process.env, KUBECTL_KUBERC: "false" };
    expect(layoutProblems(execFileSync(kubectl ?? "", ["expose", "--help"], { env, encoding: "utf8" }))).toEqual([]);
  });

  it.each([
    ["trace", traceHelp],
    ["serve", serveHelp],
  ])("kubectl servicenet %s --help follows them", (_name, help) => {
    expect(layoutProblems(help)).toEqual([]);
  });

  it("the rules catch a departure", () => {
    expect(layoutProblems(traceHelp.replace("\nOptions:\n", "\nFlags:\n"))).not.toEqual([]);
    expect(layoutProblems(traceHelp.replace("    --node='':", "    --node NAME:"))).not.toEqual([]);
    expect(layoutProblems(traceHelp.replace("    --cluster-cidr='':", "    --zz-cidr='':"))).toContain(
      "flags not sorted: zz-cidr,node,node-ip,output,protocol,proxy-mode,rules",
    );
  });
});

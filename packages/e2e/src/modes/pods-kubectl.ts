/**
 * The node side of a cluster mode, driven by real kubectl 1.33 against `npm start`'s scheduler and
 * simulated kubelet: `kubectl run` Pods are scheduled, Running and Ready with one pod IP per family
 * in the mode's order (primary first), `kubectl expose pod` over them gets ready endpoints of each
 * family, and a deleted Pod's endpoints turn terminating (still serving) while its containers stop.
 */
import { eventually } from "@servicenet/testing";
import { runKubectl } from "../kubectl/runners.ts";
import type { Mode } from "./create-matrix.ts";
import { familiesOf } from "./create-matrix.ts";

const pods = ["kweb-0", "kweb-1", "kweb-2"];

async function kubectl(kubeconfig: string, dir: string, ...argv: string[]): Promise<string> {
  const r = await runKubectl(kubeconfig, dir, argv);
  if (r.code !== 0) throw new Error(`kubectl ${argv.join(" ")}: exit ${r.code}\n${r.stderr}`);
  return r.stdout;
}

const familyOf = (ip: string) => (ip.includes(":") ? "IPv6" : "IPv4");

/** What is wrong with the Pods' binding and IPs for `mode`, one line per problem (which Node: the scheduler's unit tests; equal Nodes tie at random). */
function podProblems(lines: string, mode: Mode): string[] {
  const fams = familiesOf(mode);
  const problems: string[] = [];
  for (const line of lines.trim().split("\n")) {
    const [name = "", node = "", podIP = "", ...ips] = line.trim().split(/\s+/);
    if (!node.startsWith("node-")) problems.push(`${name}: not scheduled (${node})`);
    if (ips.map(familyOf).join(",") !== fams.join(","))
      problems.push(`${name}: podIPs ${ips.join(",")} not one per family in ${fams.join(",")} order`);
    if (podIP !== ips[0]) problems.push(`${name}: podIP ${podIP} is not podIPs[0] ${ips[0]}`);
  }
  return problems;
}

const sliceQuery =
  '-o=jsonpath={range .items[*]}{.addressType}{"="}{range .endpoints[*]}{.addresses[0]}/{.conditions.ready}/{.conditions.serving}/{.conditions.terminating}{" "}{end}{"\\n"}{end}';

/** The Service's endpoints per family: `IPv4` → ["10.244.0.2/true/true/false", ...]. */
async function endpoints(kubeconfig: string, dir: string): Promise<Map<string, string[]>> {
  const out = await kubectl(kubeconfig, dir, "get", "endpointslices", "-l", "kubernetes.io/service-name=kweb", sliceQuery);
  const m = new Map<string, string[]>();
  for (const line of out
    .trim()
    .split("\n")
    .filter((l) => l !== "")) {
    const [fam = "", rest = ""] = line.split("=");
    m.set(fam, [
      ...(m.get(fam) ?? []),
      ...rest
        .trim()
        .split(" ")
        .filter((e) => e !== ""),
    ]);
  }
  return m;
}

/** Runs the scenario; returns the problems found (none when all is well) and a summary line. */
export async function podsWithKubectl(kubeconfig: string, dir: string, mode: Mode): Promise<{ problems: string[]; summary: string }> {
  const fams = familiesOf(mode);
  const t = performance.now();
  for (const p of pods)
    // The simulated containers take 60 s to stop, so the deleted Pod stays Terminating long enough to look at.
    await kubectl(
      kubeconfig,
      dir,
      "run",
      p,
      "--image=nginx",
      "--labels=app=kweb",
      "--port=80",
      "--annotations=kubelet.servicenet.io/stop-seconds=60",
    );
  await kubectl(
    kubeconfig,
    dir,
    "expose",
    "pod",
    "kweb-0",
    "--name=kweb",
    "--port=80",
    "--selector=app=kweb",
    '--overrides={"apiVersion":"v1","spec":{"ipFamilyPolicy":"PreferDualStack"}}',
  );
  await kubectl(kubeconfig, dir, "wait", "--for=condition=Ready", "pod", "-l", "app=kweb", "--timeout=60s");
  const readyMs = Math.round(performance.now() - t);
  const lines = await kubectl(
    kubeconfig,
    dir,
    "get",
    "pods",
    "-l",
    "app=kweb",
    '-o=jsonpath={range .items[*]}{.metadata.name} {.spec.nodeName} {.status.podIP} {.status.podIPs[*].ip}{"\\n"}{end}',
  );
  const problems = podProblems(lines, mode);
  const ready = await eventually(
    async () => {
      const e = await endpoints(kubeconfig, dir);
      return fams.every((f) => (e.get(f) ?? []).filter((x) => x.endsWith("/true/true/false")).length === pods.length) ? e : undefined;
    },
    { timeoutMs: 30_000 },
  ).catch(async () => endpoints(kubeconfig, dir));
  for (const f of fams)
    if ((ready.get(f) ?? []).filter((x) => x.endsWith("/true/true/false")).length !== pods.length)
      problems.push(`${f}: want ${pods.length} ready endpoints, got ${(ready.get(f) ?? []).join(" ")}`);
  await kubectl(kubeconfig, dir, "delete", "pod", "kweb-0", "--wait=false");
  const terminating = await eventually(
    async () => {
      const e = await endpoints(kubeconfig, dir);
      return fams.every((f) => (e.get(f) ?? []).some((x) => x.endsWith("/false/true/true"))) ? e : undefined;
    },
    { timeoutMs: 30_000 },
  ).catch(async () => endpoints(kubeconfig, dir));
  for (const f of fams)
    if (!(terminating.get(f) ?? []).some((x) => x.endsWith("/false/true/true")))
      problems.push(`${f}: no terminating (serving) endpoint after delete: ${(terminating.get(f) ?? []).join(" ")}`);
  return { problems, summary: `3 kubectl-run Pods Ready in ${readyMs} ms with ${fams.join(",")} pod IPs, terminating endpoints on delete` };
}

/**
 * The node side of a cluster mode, driven by real kubectl 1.33 against `npm start`'s controllers,
 * scheduler and simulated kubelets: the tutorial flow (`kubectl create deployment`, `kubectl expose
 * deployment`, `kubectl rollout restart`). The Pods are scheduled, Running and Ready with one pod IP
 * per family in the mode's order (primary first), the Service gets ready endpoints of each family,
 * and a restart's old Pods leave terminating (still serving) endpoints while their containers stop.
 */
import { eventually } from "@servicenet/testing";
import { runKubectl } from "../kubectl/runners.ts";
import type { Mode } from "./create-matrix.ts";
import { familiesOf } from "./create-matrix.ts";

const replicas = 3;

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

/** The Deployment's Pods as `name node podIP podIPs...` lines (terminating ones left out). */
async function podLines(kubeconfig: string, dir: string): Promise<string> {
  const out = await kubectl(
    kubeconfig,
    dir,
    "get",
    "pods",
    "-l",
    "app=kweb",
    '-o=jsonpath={range .items[*]}{.metadata.name} {.metadata.deletionTimestamp}|{.spec.nodeName} {.status.podIP} {.status.podIPs[*].ip}{"\\n"}{end}',
  );
  return out
    .split("\n")
    .filter((l) => l.includes("|") && l.split("|")[0]!.trim().split(" ").length === 1)
    .map((l) => l.replace(/\s*\|/, " "))
    .join("\n");
}

const readyIn = (e: Map<string, string[]>, f: string) => (e.get(f) ?? []).filter((x) => x.endsWith("/true/true/false")).length;

/** Runs the tutorial flow; returns the problems found (none when all is well) and a summary line. */
export async function podsWithKubectl(kubeconfig: string, dir: string, mode: Mode): Promise<{ problems: string[]; summary: string }> {
  const fams = familiesOf(mode);
  const t = performance.now();
  // The first commands of every tutorial, verbatim but for the names: the Deployment controller makes
  // a ReplicaSet, the ReplicaSet controller its Pods, the scheduler binds them, the kubelets run them.
  await kubectl(kubeconfig, dir, "create", "deployment", "kweb", "--image=nginx", `--replicas=${replicas}`, "--port=80");
  await kubectl(
    kubeconfig,
    dir,
    "expose",
    "deployment",
    "kweb",
    "--port=80",
    '--overrides={"apiVersion":"v1","spec":{"ipFamilyPolicy":"PreferDualStack"}}',
  );
  await kubectl(kubeconfig, dir, "rollout", "status", "deployment/kweb", "--timeout=90s");
  const readyMs = Math.round(performance.now() - t);
  const problems = podProblems(await podLines(kubeconfig, dir), mode);
  const ready = await eventually(
    async () => {
      const e = await endpoints(kubeconfig, dir);
      return fams.every((f) => readyIn(e, f) === replicas) ? e : undefined;
    },
    { timeoutMs: 30_000 },
  ).catch(async () => endpoints(kubeconfig, dir));
  for (const f of fams)
    if (readyIn(ready, f) !== replicas) problems.push(`${f}: want ${replicas} ready endpoints, got ${(ready.get(f) ?? []).join(" ")}`);
  // A restart replaces the Pods one at a time (maxSurge 1, maxUnavailable 0 at 3 replicas): each old
  // Pod's endpoints turn terminating (still serving) for the 3 s its simulated containers take to stop.
  await kubectl(kubeconfig, dir, "rollout", "restart", "deployment/kweb");
  const terminating = await eventually(
    async () => {
      const e = await endpoints(kubeconfig, dir);
      return fams.every((f) => (e.get(f) ?? []).some((x) => x.endsWith("/false/true/true"))) ? e : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100 },
  ).catch(async () => endpoints(kubeconfig, dir));
  for (const f of fams)
    if (!(terminating.get(f) ?? []).some((x) => x.endsWith("/false/true/true")))
      problems.push(`${f}: no terminating (serving) endpoint during rollout restart: ${(terminating.get(f) ?? []).join(" ")}`);
  await kubectl(kubeconfig, dir, "rollout", "status", "deployment/kweb", "--timeout=90s");
  problems.push(...podProblems(await podLines(kubeconfig, dir), mode));
  return {
    problems,
    summary: `Deployment of ${replicas} Ready in ${readyMs} ms with ${fams.join(",")} pod IPs, terminating endpoints during rollout restart`,
  };
}

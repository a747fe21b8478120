/**
 * Issue 9's differential test: real kubectl 1.33 and servicenet-kubectl
 * against the same real apiserver (dual-stack, TLS, token auth), for every
 * object that exists after the fixtures are created (plus whatever the
 * apiserver made itself: the kubernetes Service, default ServiceCIDR,
 * IPAddresses): `describe` and `get NAME` per object, `get TYPE` plain,
 * `-o wide`, `-A` and `-o yaml` per type; then create/apply/delete steps and
 * two `get -w` watchers. Outputs must be byte-identical; only when two runs
 * straddle an age boundary (retried twice first) are ages masked (maskAges).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApiServer, type ApiServer } from "@servicenet/apiserver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFixtures, otherNS, releaseDeleting } from "./fixtures.ts";
import { instantiate, leftoverCIDRs, steps } from "./mutations.ts";
import { restClient, type Rest } from "./rest.ts";
import { haveKubectl, maskAges, runKubectl, runOurs, type Result } from "./runners.ts";
import { watchPairs } from "./watch.ts";

if (!haveKubectl())
  console.warn(
    "kubectl 1.33 not found (set SERVICENET_KUBECTL_1_33 or SERVICENET_KUBECTL_DIR, or put kubectl.1.33 on PATH): kubectl differential e2e skipped",
  );

let api: ApiServer;
let rest: Rest;
let dir: string;
let kubeconfig: string;
const tally = { exact: 0, masked: 0, commands: 0 };

/** [type argument, namespaced, describable] for every kind compared. */
const kinds: [string, boolean, boolean][] = [
  ["services", true, true],
  ["servicecidrs", false, true],
  ["ipaddresses", false, true],
  ["endpointslices", true, true],
  ["endpoints", true, true],
  ["events", true, false],
  ["ingresses", true, true],
  ["ingressclasses", false, true],
  ["networkpolicies", true, true],
];
const listPath: Record<string, string> = {
  services: "/api/v1/services",
  servicecidrs: "/apis/networking.k8s.io/v1/servicecidrs",
  ipaddresses: "/apis/networking.k8s.io/v1/ipaddresses",
  endpointslices: "/apis/discovery.k8s.io/v1/endpointslices",
  endpoints: "/api/v1/endpoints",
  events: "/api/v1/events",
  ingresses: "/apis/networking.k8s.io/v1/ingresses",
  ingressclasses: "/apis/networking.k8s.io/v1/ingressclasses",
  networkpolicies: "/apis/networking.k8s.io/v1/networkpolicies",
};

/** Runs both CLIs (kubectl first) until they agree byte for byte, at most three times; then compares masked. */
async function compare(argv: string[]): Promise<void> {
  let k: Result | undefined;
  let o: Result | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    k = await runKubectl(kubeconfig, dir, argv);
    o = await runOurs(kubeconfig, argv);
    if (k.stdout === o.stdout && k.stderr === o.stderr && k.code === o.code) break;
  }
  tally.commands++;
  if (k === undefined || o === undefined) throw new Error("not run");
  if (k.stdout === o.stdout && k.stderr === o.stderr) tally.exact++;
  else tally.masked++;
  const norm = (r: Result) => ({ code: r.code, stdout: maskAges(r.stdout), stderr: maskAges(r.stderr) });
  expect(norm(o), argv.join(" ")).toEqual(norm(k));
}

/** Every object of every kind, as [kind, namespace|undefined, name]. */
async function everyObject(): Promise<[string, string | undefined, string][]> {
  const out: [string, string | undefined, string][] = [];
  for (const [kind, namespaced] of kinds) {
    const list = await rest.call<{ items: { metadata: { name: string; namespace?: string } }[] }>("GET", listPath[kind] ?? "");
    for (const i of list.items) out.push([kind, namespaced ? i.metadata.namespace : undefined, i.metadata.name]);
  }
  return out;
}

describe.skipIf(!haveKubectl())("kubectl 1.33 vs servicenet-kubectl on the real apiserver", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "servicenet-e2e-kubectl-"));
    api = await startApiServer({ dataDir: join(dir, "data"), tls: true, port: 0, serviceClusterIPRange: "10.96.0.0/16,fd00:10:96::/112" });
    kubeconfig = join(dir, "kubeconfig");
    writeFileSync(kubeconfig, api.kubeconfig());
    rest = restClient(api.url, api.caCert ?? "", api.token ?? "");
    await createFixtures(rest);
  });
  afterAll(async () => {
    if (rest !== undefined) {
      await releaseDeleting(rest);
      for (const p of ["kctl", "snet"]) {
        for (const n of leftoverCIDRs(p))
          await rest
            .call("PATCH", `/apis/networking.k8s.io/v1/servicecidrs/${n}`, { metadata: { finalizers: null } })
            .catch(() => undefined);
      }
    }
    await api?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    console.log(
      `kubectl e2e: ${tally.commands} command pairs, ${tally.exact} byte-identical, ${tally.masked} identical after masking ages`,
    );
  });

  it("has at least 20 objects, a deleting ServiceCIDR and a LoadBalancer with ingress", async () => {
    const all = await everyObject();
    expect(all.length).toBeGreaterThanOrEqual(20);
    const deleting = await rest.call<{ metadata: { deletionTimestamp?: string } }>(
      "GET",
      "/apis/networking.k8s.io/v1/servicecidrs/cidr-deleting",
    );
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    const lb = await rest.call<{ status: { loadBalancer: { ingress?: unknown[] } } }>("GET", "/api/v1/namespaces/default/services/lb");
    expect(lb.status.loadBalancer.ingress).toHaveLength(3);
    console.log(`kubectl e2e: ${all.length} objects (${kinds.map(([k]) => `${k} ${all.filter((o) => o[0] === k).length}`).join(", ")})`);
  });

  it("describe and get NAME of every object", async () => {
    const started = Date.now();
    const queue = (await everyObject()).flatMap(([kind, namespace, name]) => {
      const nsArgs = namespace === undefined ? [] : ["-n", namespace];
      const describable = kinds.find((k) => k[0] === kind)?.[2] === true;
      return [...(describable ? [["describe", kind, name, ...nsArgs]] : []), ["get", kind, name, ...nsArgs]];
    });
    // Two pairs at a time (each pair still runs its two CLIs back to back); failures are collected
    // so one bad object does not hide the others.
    const failures: string[] = [];
    const worker = async () => {
      for (let argv = queue.shift(); argv !== undefined; argv = queue.shift()) {
        await compare(argv).catch((e: unknown) => failures.push(e instanceof Error ? e.message : String(e)));
      }
    };
    await Promise.all([worker(), worker()]);
    expect(failures).toEqual([]);
    console.log(`kubectl e2e: describe/get per object in ${Date.now() - started} ms`);
  });

  it.each(kinds.map(([k]) => k))("get %s: plain, -o wide, -A, -o yaml, -n other", async (kind) => {
    await compare(["get", kind]);
    await compare(["get", kind, "-o", "wide"]);
    await compare(["get", kind, "-A"]);
    await compare(["get", kind, "-A", "-o", "wide"]);
    await compare(["get", kind, "-o", "yaml"]);
    await compare(["get", kind, "-n", otherNS]);
  });

  it("errors: NotFound for get/describe, unknown type", async () => {
    await compare(["get", "svc", "nope"]);
    await compare(["describe", "servicecidr", "nope"]);
    await compare(["get", "ipaddress", "10.0.0.1", "-o", "yaml"]);
    await compare(["delete", "frobs", "x"]);
  });

  it("several types at once and partly missing names", async () => {
    await compare(["get", "svc,servicecidr,ipaddress", "-A"]);
    await compare(["get", "servicecidr,endpointslices", "-A", "-o", "wide"]);
    await compare(["get", "svc,ep", "web-v4"]);
    await compare(["get", "svc", "web-v4", "nope", "lb"]);
    await compare(["get", "svc,ep", "web-v4", "-o", "json"]);
  });

  it.each(steps.map((s) => [s.title, s] as const))("mutation: %s", async (_title, step) => {
    const k = instantiate(step, "kctl");
    const o = instantiate(step, "snet");
    const want = await runKubectl(kubeconfig, dir, k.argv, k.stdin);
    const got = await runOurs(kubeconfig, o.argv, o.stdin);
    const back = (s: string) => s.replaceAll("snet-", "kctl-").replaceAll("/snet.", "/kctl.");
    tally.commands++;
    tally.exact++;
    expect({ code: got.code, stdout: back(got.stdout), stderr: back(got.stderr) }, k.argv.join(" ")).toEqual(want);
  });

  it("get -w and get --watch-only -o wide print the same rows", async () => {
    const pairs = await watchPairs(rest, kubeconfig, dir);
    for (const { argv, kubectl, ours } of pairs) {
      tally.commands++;
      if (kubectl.stdout === ours.stdout) tally.exact++;
      else tally.masked++;
      expect(maskAges(ours.stdout), argv.join(" ")).toBe(maskAges(kubectl.stdout));
      expect(ours.code).toBe(0);
    }
  });
});

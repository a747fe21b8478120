/**
 * create/apply/delete scenarios for the differential test. Each step is run
 * by both CLIs on their own copies of the objects (names prefixed `kctl-` for
 * kubectl and `snet-` for servicenet-kubectl), and outputs are compared after
 * mapping the prefix back.
 */

/** One command line with an optional manifest on stdin; `P` in either is the prefix. */
export interface Step {
  title: string;
  argv: string[];
  stdin?: string;
}

const manifest = (targetPort: number) => `apiVersion: v1
kind: Service
metadata:
  name: P-mut
  namespace: default
spec:
  selector: {app: P-mut}
  ports:
  - {port: 80, targetPort: ${targetPort}}
---
apiVersion: v1
kind: List
items:
- apiVersion: networking.k8s.io/v1
  kind: ServiceCIDR
  metadata: {name: P-mut-cidr}
  spec: {cidrs: ["10.210.0.0/24"]}
- apiVersion: v1
  kind: Service
  metadata: {name: P-mut-v6}
  spec: {ipFamilies: [IPv6], ports: [{port: 53, protocol: UDP}]}
`;

const invalid = `{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "P-bad"}, "spec": {"ports": [{"port": 0}]}}`;
const unknownKind = `apiVersion: v1\nkind: Frob\nmetadata: {name: P-frob}\n`;

/** The steps, in order; each depends on the state the previous ones left. */
export const steps: Step[] = [
  { title: "create -f - (YAML, two documents, a List)", argv: ["create", "-f", "-"], stdin: manifest(8080) },
  { title: "create again: AlreadyExists for each object", argv: ["create", "-f", "-"], stdin: manifest(8080) },
  { title: "apply --server-side of the same objects", argv: ["apply", "--server-side", "-f", "-"], stdin: manifest(8080) },
  {
    title: "apply with another field manager: conflict",
    argv: ["apply", "--server-side", "--field-manager=other", "-f", "-"],
    stdin: manifest(9090).split("---")[0] ?? "",
  },
  {
    title: "apply --force-conflicts",
    argv: ["apply", "--server-side", "--field-manager=other", "--force-conflicts", "-f", "-"],
    stdin: manifest(9090).split("---")[0] ?? "",
  },
  { title: "create an invalid Service (JSON)", argv: ["create", "-f", "-"], stdin: invalid },
  { title: "apply an invalid Service", argv: ["apply", "--server-side", "-f", "-"], stdin: invalid },
  { title: "create an unknown kind", argv: ["create", "-f", "-", "--validate=false"], stdin: unknownKind },
  {
    title: "delete -f (the ServiceCIDR keeps its finalizer: --wait=false)",
    argv: ["delete", "--wait=false", "-f", "-"],
    stdin: manifest(8080),
  },
  {
    title: "delete -f again: NotFound for the Services",
    argv: ["delete", "--wait=false", "-f", "-"],
    stdin: manifest(8080).split("---")[0] ?? "",
  },
  { title: "delete TYPE NAME: NotFound", argv: ["delete", "svc", "P-gone", "P-gone2"] },
  { title: "delete --ignore-not-found", argv: ["delete", "svc", "P-gone", "--ignore-not-found"] },
  { title: "delete servicecidr/NAME of a missing object", argv: ["delete", "servicecidr/P-gone"] },
  { title: "delete TYPE without a name", argv: ["delete", "svc"] },
  { title: "delete without arguments", argv: ["delete"] },
  { title: "create without -f", argv: ["create"] },
  { title: "a missing file", argv: ["create", "-f", "/nonexistent/P.yaml"] },
];

/** The step for one CLI: every `P` placeholder becomes `prefix`. */
export function instantiate(step: Step, prefix: string): { argv: string[]; stdin: string | undefined } {
  const sub = (s: string) => s.replaceAll("P-", `${prefix}-`).replaceAll("/P.", `/${prefix}.`);
  return { argv: step.argv.map(sub), stdin: step.stdin === undefined ? undefined : sub(step.stdin) };
}

/** Names the mutation steps leave behind (ServiceCIDRs held by the apiserver's finalizer). */
export const leftoverCIDRs = (prefix: string): string[] => [`${prefix}-mut-cidr`];

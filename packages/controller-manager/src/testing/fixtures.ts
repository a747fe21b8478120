/**
 * Object builders for controller tests (and for e2e that wants the same
 * shapes): Services and Pods as the apiserver would return them.
 */
import type { Pod, Service } from "@servicenet/api";

export interface ServiceOpts {
  name?: string;
  namespace?: string;
  families?: ("IPv4" | "IPv6")[];
  clusterIP?: string;
  selector?: Record<string, string> | undefined;
  ports?: NonNullable<Service["spec"]["ports"]>;
  publishNotReadyAddresses?: boolean;
  labels?: Record<string, string>;
}

/** A ClusterIP Service (defaults: dual-stack IPv4,IPv6, selector app=web, port http 80 -> 8080). */
export function makeService(o: ServiceOpts = {}): Service {
  const families = o.families ?? ["IPv4", "IPv6"];
  const clusterIPs = o.clusterIP === "None" ? ["None"] : families.map((f) => (f === "IPv4" ? "10.96.0.10" : "fd00:10:96::a"));
  const spec: Service["spec"] = {
    type: "ClusterIP",
    clusterIP: o.clusterIP ?? clusterIPs[0],
    clusterIPs,
    ipFamilies: families,
    ipFamilyPolicy: families.length === 2 ? "RequireDualStack" : "SingleStack",
    ports: o.ports ?? [{ name: "http", port: 80, protocol: "TCP", targetPort: 8080 }],
  };
  if (o.selector !== undefined || !("selector" in o)) spec.selector = o.selector ?? { app: "web" };
  if (o.publishNotReadyAddresses !== undefined) spec.publishNotReadyAddresses = o.publishNotReadyAddresses;
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: o.name ?? "web",
      namespace: o.namespace ?? "default",
      uid: `uid-svc-${o.name ?? "web"}`,
      resourceVersion: "1",
      creationTimestamp: "2026-01-01T00:00:00Z",
      ...(o.labels ? { labels: o.labels } : {}),
    },
    spec,
  };
}

export interface PodOpts {
  name: string;
  namespace?: string;
  ips?: string[];
  ready?: boolean;
  labels?: Record<string, string>;
  nodeName?: string;
  deleting?: boolean;
  phase?: string;
  containerPorts?: { name?: string; containerPort: number; protocol?: string }[];
  readyTransition?: string;
}

/** A running Pod with the given IPs (status.podIP = first) and Ready condition. */
export function makePod(o: PodOpts): Pod {
  const ips = o.ips ?? [];
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: o.name,
      namespace: o.namespace ?? "default",
      uid: `uid-${o.name}`,
      resourceVersion: "1",
      labels: o.labels ?? { app: "web" },
      ...(o.deleting ? { deletionTimestamp: "2026-01-01T00:01:00Z" } : {}),
    },
    spec: {
      containers: [{ name: "c", ports: o.containerPorts ?? [{ name: "http", containerPort: 8080, protocol: "TCP" }] }],
      ...(o.nodeName ? { nodeName: o.nodeName } : {}),
    },
    status: {
      phase: o.phase ?? "Running",
      ...(ips[0] !== undefined ? { podIP: ips[0] } : {}),
      podIPs: ips.map((ip) => ({ ip })),
      conditions: [
        { type: "Ready", status: o.ready === false ? "False" : "True", lastTransitionTime: o.readyTransition ?? "2026-01-01T00:00:30Z" },
      ],
    },
  };
}

/** `n` dual-stack pods p0..p(n-1) with 10.244.x.y and fd00:244::x:y addresses. */
export function dualStackPods(n: number, over: Partial<PodOpts> = {}): Pod[] {
  return Array.from({ length: n }, (_, i) =>
    makePod({
      name: `p${i}`,
      ips: [`10.244.${i >> 8}.${(i & 255) + 1}`, `fd00:244::${(i >> 8).toString(16)}:${((i & 255) + 1).toString(16)}`],
      nodeName: "node-a",
      ...over,
    }),
  );
}

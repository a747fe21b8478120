/**
 * The `kubernetes` Service in `default` (upstream pkg/controlplane/controller/kubernetesservice,
 * CreateOrUpdateMasterServiceIfNeeded / getMasterServiceUpdateIfNeeded): SingleStack in the
 * primary family, the first IP of the primary range, port 443 "https" to the apiserver's port.
 * Reconciliation rewrites only ports and type, as upstream; the IP is never changed.
 */
import { StatusError, addressAt, formatIP } from "@servicenet/api";
import type { GenericStore } from "../../../registry/generic/store.ts";
import { serviceRESTOf, type ServiceREST } from "../../../registry/core/service/index.ts";
import type { KubeObject } from "../../../storage/index.ts";

export const kubernetesServiceName = "kubernetes";
export const kubernetesServiceNamespace = "default";

export interface KubernetesServiceOptions {
  /** The apiserver's secure port (the targetPort). */
  port: number;
  /** The Service port; upstream's PublicServicePort defaults to 443. */
  publicPort?: number;
  /** --kubernetes-service-node-port: > 0 makes the Service type NodePort with that nodePort. */
  nodePort?: number;
}

export type ReconcileAction = "created" | "updated" | "unchanged";

interface PortSpec {
  name: string;
  protocol: string;
  port: number;
  targetPort: number;
  nodePort?: number;
}

/** The first usable address (index 1) of the primary service CIDR (upstream `ServiceIP`). */
export function kubernetesServiceIP(rest: ServiceREST): string {
  const primary = rest.allocators.serviceIPAllocatorsByFamily.get(rest.allocators.defaultServiceIPFamily);
  if (!primary) throw StatusError.internal("no allocator for the primary service IP family");
  return formatIP(addressAt(primary.cidr(), 1n));
}

/** upstream createPortAndServiceSpec. */
function desiredPorts(opts: KubernetesServiceOptions): { ports: PortSpec[]; type: string } {
  const port: PortSpec = { name: "https", protocol: "TCP", port: opts.publicPort ?? 443, targetPort: opts.port };
  if ((opts.nodePort ?? 0) > 0) return { ports: [{ ...port, nodePort: opts.nodePort! }], type: "NodePort" };
  return { ports: [port], type: "ClusterIP" };
}

/** The Service as the controller creates it. */
function desiredService(rest: ServiceREST, opts: KubernetesServiceOptions): KubeObject {
  const { ports, type } = desiredPorts(opts);
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: {
      name: kubernetesServiceName,
      namespace: kubernetesServiceNamespace,
      labels: { provider: "kubernetes", component: "apiserver" },
    },
    spec: { type, clusterIP: kubernetesServiceIP(rest), ipFamilyPolicy: "SingleStack", sessionAffinity: "None", ports },
  };
}

/** upstream checkServiceFormat: same type and exactly the desired ports (struct equality). */
function formatCorrect(svc: KubeObject, want: { ports: PortSpec[]; type: string }): boolean {
  const spec = (svc["spec"] ?? {}) as { type?: string; ports?: Array<Record<string, unknown>> };
  const have = spec.ports ?? [];
  if (spec.type !== want.type || have.length !== want.ports.length) return false;
  return want.ports.every((p, i) => {
    const h = have[i] ?? {};
    const keys = new Set([...Object.keys(h), ...Object.keys(p)]);
    // Only set fields count, as Go's zero values do.
    return [...keys].every((k) => (h[k] ?? 0) === ((p as unknown as Record<string, unknown>)[k] ?? 0));
  });
}

/**
 * Creates the `kubernetes` Service if absent, or resets its ports and type if someone changed
 * them. The `default` namespace must exist (NamespaceLifecycle admission applies).
 */
export async function reconcileKubernetesService(
  rest: ServiceREST,
  opts: KubernetesServiceOptions,
): Promise<{ action: ReconcileAction; service: KubeObject }> {
  const want = desiredPorts(opts);
  for (let attempt = 0; attempt < 3; attempt++) {
    let existing: KubeObject | null = null;
    try {
      existing = await rest.get(kubernetesServiceNamespace, kubernetesServiceName);
    } catch (err) {
      if (!(err instanceof StatusError && err.reason === "NotFound")) throw err;
    }
    if (existing === null) {
      const body = desiredService(rest, opts);
      rest.strategy.defaults?.(body);
      try {
        return { action: "created", service: await rest.create(kubernetesServiceNamespace, body) };
      } catch (err) {
        // Another apiserver created it first: reconcile that one.
        if (err instanceof StatusError && err.reason === "AlreadyExists") continue;
        throw err;
      }
    }
    if (formatCorrect(existing, want)) return { action: "unchanged", service: existing };
    const next = structuredClone(existing);
    const spec = (next["spec"] ??= {}) as Record<string, unknown>;
    // The type no longer needs externalTrafficPolicy: drop it before the versioned defaults run on
    // `next` (PrepareForUpdate's dropTypeDependentFields would drop an unchanged one as well).
    if (want.type === "ClusterIP" && spec["type"] !== "ClusterIP") delete spec["externalTrafficPolicy"];
    spec["ports"] = want.ports;
    spec["type"] = want.type;
    // Upstream sends this through the API, which applies the versioned defaults (externalTrafficPolicy for NodePort).
    rest.strategy.defaults?.(next);
    try {
      const { object } = await rest.update(kubernetesServiceNamespace, kubernetesServiceName, async () => structuredClone(next));
      return { action: "updated", service: object };
    } catch (err) {
      if (err instanceof StatusError && err.reason === "Conflict") continue;
      throw err;
    }
  }
  throw StatusError.internal("could not reconcile the kubernetes service: too many conflicts");
}

/** Reconciles kubernetes.default through the registry's ServiceREST; call once the bootstrap namespaces exist. */
export async function reconcileKubernetesServiceIn(
  stores: ReadonlyMap<string, GenericStore>,
  opts: KubernetesServiceOptions,
): Promise<ReconcileAction | undefined> {
  const rest = serviceRESTOf(stores);
  return rest ? (await reconcileKubernetesService(rest, opts)).action : undefined;
}

/**
 * NodePort and healthCheckNodePort allocation (upstream storage/alloc.go:
 * txnAllocNodePorts, initNodePorts, txnUpdateNodePorts, updateNodePorts,
 * allocHealthCheckNodePort, updateHealthCheckNodePort). All work goes through
 * a PortAllocationOperation: allocations are immediate, releases deferred.
 */
import { field, path, type Service, serviceTypes, StatusError } from "@servicenet/api";
import type { PortAllocatorInterface } from "../portallocator/interfaces.ts";
import { PortAllocationOperation } from "../portallocator/operation.ts";
import { collectServiceNodePorts, findRequestedNodePort, needsHealthCheck, needsNodePort, shouldAllocateNodePorts } from "./helpers.ts";
import { nameOf, specOf } from "./service-view.ts";
import { callbackTransaction, type Transaction } from "./transaction.ts";

function invalidNodePort(svc: Service, i: number, value: number, err: unknown): StatusError {
  return StatusError.invalid({ group: "", kind: "Service" }, nameOf(svc), [
    field.invalid(path("spec", "ports", i, "nodePort"), value, (err as Error).message),
  ]);
}

function nodePortFailure(err: unknown): StatusError {
  return StatusError.internal(`failed to allocate a nodePort: ${(err as Error).message}`, err);
}

/** The transaction of an operation: commit performs deferred releases, revert undoes allocations. */
function operationTransaction(op: PortAllocationOperation): Transaction {
  return callbackTransaction({
    commit: async () => {
      await op.commit();
      await op.finish();
    },
    // Weirdly named upstream too: finish() rolls back unless commit ran.
    revert: () => op.finish(),
  });
}

/** How many ports initNodePorts will take with allocateNext: one per service port number with no requested nodePort. */
function createDynamicNodePorts(svc: Service): number {
  const ports = specOf(svc).ports ?? [];
  const seen = new Set<number>();
  let n = 0;
  for (const sp of ports) {
    if ((sp.nodePort ?? 0) === 0 && !shouldAllocateNodePorts(svc)) continue;
    const port = sp.port ?? 0;
    if (seen.has(port)) continue;
    seen.add(port);
    if (findRequestedNodePort(port, ports) === 0) n++;
  }
  return n;
}

/**
 * Create: ports sharing a port number share a nodePort; requested values are reserved, others
 * allocated. Deviation: the dynamic ones are all taken at the first of them, in one operation
 * (PortAllocationOperation.reserveNext says why), so "range is full" comes there when they do not
 * all fit, before a later requested port is checked.
 */
export async function initNodePorts(svc: Service, op: PortAllocationOperation): Promise<void> {
  const ports = specOf(svc).ports ?? [];
  const byServicePort = new Map<number, number>();
  let toReserve = createDynamicNodePorts(svc);
  for (let i = 0; i < ports.length; i++) {
    const sp = ports[i]!;
    const nodePort = sp.nodePort ?? 0;
    if (nodePort === 0 && !shouldAllocateNodePorts(svc)) continue; // respect explicit requests only
    const already = byServicePort.get(sp.port ?? 0) ?? 0;
    if (already === 0) {
      const requested = findRequestedNodePort(sp.port ?? 0, ports);
      if (requested !== 0) {
        try {
          await op.allocate(requested);
        } catch (err) {
          throw invalidNodePort(svc, i, requested, err);
        }
        sp.nodePort = requested;
        byServicePort.set(sp.port ?? 0, requested);
      } else {
        let np: number;
        try {
          if (toReserve > 1) await op.reserveNext(toReserve);
          toReserve = 0;
          np = await op.allocateNext();
        } catch (err) {
          throw nodePortFailure(err);
        }
        sp.nodePort = np;
        byServicePort.set(sp.port ?? 0, np);
      }
    } else if (nodePort !== already) {
      if (nodePort === 0) {
        sp.nodePort = already;
      } else {
        try {
          await op.allocate(nodePort);
        } catch (err) {
          throw invalidNodePort(svc, i, nodePort, err);
        }
      }
    }
  }
}

/** Reserves the requested healthCheckNodePort or allocates one. */
export async function allocHealthCheckNodePort(svc: Service, op: PortAllocationOperation): Promise<void> {
  const spec = specOf(svc);
  const requested = spec.healthCheckNodePort ?? 0;
  if (requested !== 0) {
    try {
      await op.allocate(requested);
    } catch (err) {
      throw new Error(`failed to allocate requested HealthCheck NodePort ${requested}: ${(err as Error).message}`, { cause: err });
    }
    return;
  }
  try {
    spec.healthCheckNodePort = await op.allocateNext();
  } catch (err) {
    throw new Error(`failed to allocate a HealthCheck NodePort 0: ${(err as Error).message}`, { cause: err });
  }
}

/** Create: node ports for NodePort/LoadBalancer, and the HCNP for Local LoadBalancers. */
export async function txnAllocNodePorts(pa: PortAllocatorInterface, svc: Service, dryRun: boolean): Promise<Transaction> {
  const op = new PortAllocationOperation(pa, dryRun);
  const txn = operationTransaction(op);
  try {
    if (needsNodePort(svc)) await initNodePorts(svc, op);
    if (needsHealthCheck(svc)) {
      try {
        await allocHealthCheckNodePort(svc, op);
      } catch (err) {
        throw StatusError.internal((err as Error).message, err);
      }
    }
  } catch (err) {
    await txn.revert();
    throw err;
  }
  return txn;
}

/**
 * Update: reserve new nodePorts, allocate missing ones, defer release of the old ones no longer
 * used. The missing ones are taken together at the first of them, as in initNodePorts.
 */
export async function updateNodePorts(svc: Service, old: Service, op: PortAllocationOperation): Promise<void> {
  const oldNumbers = collectServiceNodePorts(old);
  const seen: Array<{ protocol: string; nodePort: number }> = [];
  const portAllocated = new Set<number>();
  const ports = specOf(svc).ports ?? [];
  let toReserve = shouldAllocateNodePorts(svc) ? ports.filter((p) => (p.nodePort ?? 0) === 0).length : 0;
  for (let i = 0; i < ports.length; i++) {
    const sp = ports[i]!;
    if ((sp.nodePort ?? 0) === 0 && !shouldAllocateNodePorts(svc)) continue;
    let nodePort = sp.nodePort ?? 0;
    if (nodePort !== 0) {
      if (!oldNumbers.includes(nodePort) && !portAllocated.has(nodePort)) {
        try {
          await op.allocate(nodePort);
        } catch (err) {
          throw invalidNodePort(svc, i, nodePort, err);
        }
        portAllocated.add(nodePort);
      }
    } else {
      try {
        if (toReserve > 1) await op.reserveNext(toReserve);
        toReserve = 0;
        nodePort = await op.allocateNext();
      } catch (err) {
        throw nodePortFailure(err);
      }
      sp.nodePort = nodePort;
    }
    const protocol = sp.protocol ?? "";
    if (seen.some((s) => s.protocol === protocol && s.nodePort === nodePort)) {
      throw new Error(`duplicate nodePort: {${protocol} ${nodePort}}`);
    }
    seen.push({ protocol, nodePort });
  }
  const newNumbers = collectServiceNodePorts(svc);
  for (const n of oldNumbers) if (!newNumbers.includes(n)) op.releaseDeferredPort(n);
}

/** Update: HCNP allocated when a service starts needing one, released (deferred) when it stops. */
export async function updateHealthCheckNodePort(svc: Service, old: Service, op: PortAllocationOperation): Promise<void> {
  const needed = needsHealthCheck(old);
  const needs = needsHealthCheck(svc);
  if (!needed && needs) {
    try {
      await allocHealthCheckNodePort(svc, op);
    } catch (err) {
      throw StatusError.internal((err as Error).message, err);
    }
  } else if (needed && !needs) {
    op.releaseDeferredPort(specOf(old).healthCheckNodePort ?? 0);
  }
}

/** Update transaction for node ports (type changes release, NodePort/LB types update). */
export async function txnUpdateNodePorts(pa: PortAllocatorInterface, svc: Service, old: Service, dryRun: boolean): Promise<Transaction> {
  const op = new PortAllocationOperation(pa, dryRun);
  const txn = operationTransaction(op);
  const type = specOf(svc).type;
  try {
    if (needsNodePort(old) && (type === serviceTypes.ExternalName || type === serviceTypes.ClusterIP)) {
      for (const n of collectServiceNodePorts(old)) op.releaseDeferredPort(n);
    }
    if (needsNodePort(svc)) await updateNodePorts(svc, old, op);
    await updateHealthCheckNodePort(svc, old, op);
  } catch (err) {
    await txn.revert();
    throw err;
  }
  return txn;
}

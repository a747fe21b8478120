/**
 * A Pod's requests as the scheduler counts them (component-helpers resource `PodRequests`): the
 * sum over containers, at least the largest init container, plus the Pod overhead; and the
 * non-zero variant scoring uses (pkg/scheduler/util `GetNonzeroRequests`: 100m CPU and 200 MB of
 * memory for a container that asks for none).
 */
import { parseQuantityMilli, type Pod } from "@servicenet/api";
import { emptyResource, type Resource } from "./types.ts";

export const defaultMilliCPURequest = 100;
export const defaultMemoryRequest = 200 * 1024 * 1024;

type Requests = Readonly<Record<string, string>>;

const requestsOf = (c: unknown): Requests => (c as { resources?: { requests?: Requests } }).resources?.requests ?? {};

function add(into: Resource, requests: Requests): void {
  for (const [name, q] of Object.entries(requests)) {
    const milli = parseQuantityMilli(q) ?? 0;
    if (name === "cpu") into.milliCPU += milli;
    else if (name === "memory") into.memory += Math.ceil(milli / 1000);
    else if (name === "ephemeral-storage") into.ephemeralStorage += Math.ceil(milli / 1000);
    else into.scalar[name] = (into.scalar[name] ?? 0) + Math.ceil(milli / 1000);
  }
}

function max(into: Resource, other: Resource): void {
  into.milliCPU = Math.max(into.milliCPU, other.milliCPU);
  into.memory = Math.max(into.memory, other.memory);
  into.ephemeralStorage = Math.max(into.ephemeralStorage, other.ephemeralStorage);
  for (const [k, v] of Object.entries(other.scalar)) into.scalar[k] = Math.max(into.scalar[k] ?? 0, v);
}

/** The Pod's effective requests. */
export function podRequests(pod: Pod): Resource {
  const r = emptyResource();
  for (const c of pod.spec.containers) add(r, requestsOf(c));
  for (const c of (pod.spec["initContainers"] as unknown[] | undefined) ?? []) {
    const init = emptyResource();
    add(init, requestsOf(c));
    max(r, init);
  }
  add(r, (pod.spec["overhead"] as Requests | undefined) ?? {});
  return r;
}

/** The Pod's requests for scoring, each container's unset CPU or memory counted at the defaults. */
export function nonZeroRequests(pod: Pod): { milliCPU: number; memory: number } {
  let milliCPU = 0;
  let memory = 0;
  for (const c of pod.spec.containers) {
    const req = requestsOf(c);
    milliCPU += req["cpu"] !== undefined ? (parseQuantityMilli(req["cpu"]) ?? 0) : defaultMilliCPURequest;
    memory += req["memory"] !== undefined ? Math.ceil((parseQuantityMilli(req["memory"]) ?? 0) / 1000) : defaultMemoryRequest;
  }
  return { milliCPU, memory };
}

/** A Node's allocatable resources and Pod count. */
export function allocatableOf(allocatable: Requests | undefined): Resource & { pods: number } {
  const r = emptyResource();
  const { pods, ...rest } = allocatable ?? {};
  add(r, rest);
  return { ...r, pods: pods !== undefined ? Math.floor((parseQuantityMilli(pods) ?? 0) / 1000) : 0 };
}

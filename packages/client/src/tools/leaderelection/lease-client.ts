/** A LeaseClient over client-node's CoordinationV1Api (one named Lease in one namespace). */
import { CoordinationV1Api, V1MicroTime, type KubeConfig, type V1Lease } from "@kubernetes/client-node";
import type { LeaseClient, LeaseRecord, ObservedLease } from "./leader-election.ts";
import { isNotFound } from "../../errors/index.ts";
import { copyKubeConfig } from "../../rest/rate-limit.ts";
import { connectionLimitsOf, reuseConnections } from "../clientcmd/connection-reuse.ts";

function toMs(t: unknown): number {
  if (t instanceof Date) return t.getTime();
  if (typeof t === "string") return Date.parse(t);
  return 0;
}

/** Reads the leader-election fields of a Lease (absent fields as client-go reads them: zero values). */
export function leaseToRecord(lease: V1Lease): ObservedLease {
  const s = lease.spec ?? {};
  return {
    resourceVersion: lease.metadata?.resourceVersion ?? "",
    record: {
      holderIdentity: s.holderIdentity ?? "",
      leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
      acquireTime: toMs(s.acquireTime),
      renewTime: toMs(s.renewTime),
      leaseTransitions: s.leaseTransitions ?? 0,
    },
  };
}

/** Builds the Lease object for `record` (resourceVersion set for an optimistic-concurrency update). */
export function recordToLease(name: string, namespace: string, record: LeaseRecord, resourceVersion?: string): V1Lease {
  return {
    apiVersion: "coordination.k8s.io/v1",
    kind: "Lease",
    metadata: { name, namespace, ...(resourceVersion !== undefined ? { resourceVersion } : {}) },
    spec: {
      holderIdentity: record.holderIdentity,
      leaseDurationSeconds: record.leaseDurationSeconds,
      acquireTime: new V1MicroTime(record.acquireTime),
      renewTime: new V1MicroTime(record.renewTime),
      leaseTransitions: record.leaseTransitions,
    },
  };
}

/**
 * `resourcelock.LeaseLock`: the Lease `namespace/name` through the apiserver's HTTP API. The lock
 * has a client of its own, as upstream's components build a separate "leader-election" clientset:
 * over HTTP/1.1 a renewal sharing the component's capped connection pool would queue behind its
 * slow requests and could miss the renew deadline.
 */
export function leaseLock(kubeConfig: KubeConfig, namespace: string, name: string): LeaseClient {
  const own = reuseConnections(copyKubeConfig(kubeConfig), connectionLimitsOf(kubeConfig));
  const api = own.makeApiClient(CoordinationV1Api);
  return {
    async get() {
      try {
        return leaseToRecord(await api.readNamespacedLease({ name, namespace }));
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    async create(record) {
      return leaseToRecord(await api.createNamespacedLease({ namespace, body: recordToLease(name, namespace, record) }));
    },
    async update(record, resourceVersion) {
      return leaseToRecord(
        await api.replaceNamespacedLease({ name, namespace, body: recordToLease(name, namespace, record, resourceVersion) }),
      );
    },
  };
}

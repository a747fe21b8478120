/**
 * APIServerIdentity (on by default since 1.26): every apiserver holds a coordination.k8s.io Lease
 * `apiserver-<hash>` in kube-system labelled `apiserver.kubernetes.io/identity: kube-apiserver`,
 * renewed every 10 s with a 1 h duration (upstream pkg/controlplane/apiserver/server.go with
 * component-helpers' lease controller), and expired ones are deleted every hour (upstream
 * pkg/controlplane/controller/apiserverleasegc).
 */
import type { Logger } from "@servicenet/component-base/logs";
import { createHash, randomUUID } from "node:crypto";
import { hostname as osHostname } from "node:os";
import { StatusError, formatMicroTime } from "@servicenet/api";
import type { GenericStore } from "../../../registry/generic/store.ts";
import { parseLabelSelector } from "../../../registry/generic/selection/labels.ts";
import type { KubeObject } from "../../../storage/index.ts";

/** upstream IdentityLeaseComponentLabelKey and its kube-apiserver value. */
export const identityLeaseComponentLabelKey = "apiserver.kubernetes.io/identity";
export const identityLeaseComponentLabelValue = "kube-apiserver";
/** upstream IdentityLeaseDurationSeconds, IdentityLeaseRenewIntervalPeriod, IdentityLeaseGCPeriod. */
export const identityLeaseDurationSeconds = 3600;
export const identityLeaseRenewIntervalMs = 10_000;
export const identityLeaseGCPeriodMs = 3600_000;

const base32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding (Go's base32.StdEncoding.WithPadding(NoPadding)). */
function base32NoPadding(bytes: Uint8Array): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** A cryptobyte uint16-length-prefixed field. */
function lengthPrefixed(s: string): Buffer {
  const b = Buffer.from(s, "utf8");
  const len = Buffer.alloc(2);
  len.writeUInt16BE(b.length);
  return Buffer.concat([len, b]);
}

/**
 * The apiserver's identity (genericapiserver's APIServerID): `apiserver-` + lower-case base32 of
 * the first 16 bytes of sha256(len16(hostname) hostname len16("kube-apiserver") "kube-apiserver").
 */
export function apiserverID(hostname: string): string {
  const hash = createHash("sha256")
    .update(Buffer.concat([lengthPrefixed(hostname), lengthPrefixed(identityLeaseComponentLabelValue)]))
    .digest();
  return `apiserver-${base32NoPadding(hash.subarray(0, 16)).toLowerCase()}`;
}

export interface IdentityLeaseOptions {
  leases: GenericStore;
  hostname?: string;
  now?: () => number;
}

/** Creates or renews this apiserver's identity Lease. */
export async function renewIdentityLease(o: IdentityLeaseOptions & { holderIdentity: string }): Promise<void> {
  const host = o.hostname ?? osHostname();
  const name = apiserverID(host);
  const now = formatMicroTime(new Date((o.now ?? Date.now)()));
  const labels = { [identityLeaseComponentLabelKey]: identityLeaseComponentLabelValue, "kubernetes.io/hostname": host };
  await o.leases.update("kube-system", name, async (current) => {
    const lease: KubeObject = current
      ? structuredClone(current)
      : { apiVersion: "coordination.k8s.io/v1", kind: "Lease", metadata: { name, namespace: "kube-system" } };
    lease.metadata["labels"] = { ...(lease.metadata["labels"] ?? {}), ...labels };
    lease["spec"] = {
      ...(lease["spec"] ?? {}),
      holderIdentity: o.holderIdentity,
      leaseDurationSeconds: identityLeaseDurationSeconds,
      renewTime: now,
    };
    return lease;
  });
}

/** upstream apiserverleasegc: deletes identity Leases whose renewTime + duration has passed. */
export async function collectExpiredIdentityLeases(o: IdentityLeaseOptions): Promise<string[]> {
  const now = (o.now ?? Date.now)();
  const { items } = await o.leases.list("kube-system", {
    labelSelector: parseLabelSelector(`${identityLeaseComponentLabelKey}=${identityLeaseComponentLabelValue}`),
  });
  const deleted: string[] = [];
  for (const lease of items) {
    const spec = (lease["spec"] ?? {}) as { renewTime?: string; leaseDurationSeconds?: number };
    const renewed = spec.renewTime ? Date.parse(spec.renewTime) : NaN;
    if (!(renewed + (spec.leaseDurationSeconds ?? 0) * 1000 < now)) continue;
    try {
      await o.leases.delete("kube-system", lease.metadata.name ?? "", {
        preconditions: { resourceVersion: lease.metadata.resourceVersion ?? "" },
      });
      deleted.push(lease.metadata.name ?? "");
    } catch (e) {
      if (!(e instanceof StatusError && (e.reason === "NotFound" || e.reason === "Conflict"))) throw e;
    }
  }
  return deleted;
}

/** Runs the renewal and the GC loops; `stop` ends them (the Lease stays until it expires, as upstream). */
export function startIdentityLeaseControllers(o: IdentityLeaseOptions & { logger: Logger }): { stop(): void } {
  const holderIdentity = `${apiserverID(o.hostname ?? osHostname())}_${randomUUID()}`;
  const renew = (): void =>
    void renewIdentityLease({ ...o, holderIdentity }).catch((e: unknown) =>
      o.logger.error("failed to renew identity lease", { err: String(e) }),
    );
  const gc = (): void =>
    void collectExpiredIdentityLeases(o).catch((e: unknown) =>
      o.logger.error("failed to garbage-collect identity leases", { err: String(e) }),
    );
  renew();
  gc();
  const timers = [setInterval(renew, identityLeaseRenewIntervalMs), setInterval(gc, identityLeaseGCPeriodMs)];
  for (const t of timers) t.unref();
  return { stop: () => timers.forEach((t) => clearInterval(t)) };
}

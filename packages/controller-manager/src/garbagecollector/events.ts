/**
 * The garbage collector's Warning events (upstream's event recorder with source
 * `garbage-collector-controller`): OwnerRefInvalidNamespace on a dependent whose owner reference
 * names a namespaced owner in another namespace.
 */
import { CoreV1Api, type KubeConfig } from "@kubernetes/client-node";
import { describeError } from "@servicenet/client/errors";
import type { Logger } from "@servicenet/component-base/logs";
import type { InvalidOwnerRefReporter } from "./graph-builder.ts";

/** A reporter that writes a core/v1 Event in the dependent's namespace ("default" for cluster-scoped ones). */
export function invalidOwnerRefEventReporter(kc: KubeConfig, log: Logger): InvalidOwnerRefReporter {
  const core = kc.makeApiClient(CoreV1Api);
  return (dep, message) => {
    const namespace = dep.namespace !== "" ? dep.namespace : "default";
    const now = new Date();
    // client-go record's makeEvent: `<name>.<UnixNano in hex>`.
    const nanos = BigInt(now.getTime()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n);
    core
      .createNamespacedEvent({
        namespace,
        body: {
          metadata: { name: `${dep.name}.${nanos.toString(16)}`, namespace },
          involvedObject: { apiVersion: dep.apiVersion, kind: dep.kind, name: dep.name, namespace: dep.namespace, uid: dep.uid },
          reason: "OwnerRefInvalidNamespace",
          message,
          type: "Warning",
          source: { component: "garbage-collector-controller" },
          reportingComponent: "garbage-collector-controller",
          reportingInstance: "",
          firstTimestamp: now,
          lastTimestamp: now,
          count: 1,
        },
      })
      .catch((err: unknown) => log.error("unable to write event", { reason: "OwnerRefInvalidNamespace", err: describeError(err) }));
  };
}

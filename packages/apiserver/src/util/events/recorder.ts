/**
 * An event recorder for the apiserver's own controllers (client-go tools/record with a core/v1
 * sink): writes core/v1 Events straight to storage under the involved object's namespace
 * (`default` for cluster-scoped objects, as upstream), so `kubectl describe` and
 * `kubectl get events` show them. Repeats of the same event (object, type, reason, message)
 * within the process bump `count` and `lastTimestamp` of one Event instead of creating new
 * ones, as client-go's EventCorrelator does.
 */
import { randomBytes } from "node:crypto";
import type { ObjectReference } from "@servicenet/api";
import { objectKey, type KubeObject, type Store } from "../../storage/index.ts";

/** Records events; never throws (a lost event must not fail the controller). */
export interface EventRecorder {
  /** `eventtype` is "Normal" or "Warning"; `action` is the events/v1 action (e.g. ClusterIPAllocation). */
  eventf(regarding: ObjectReference, eventtype: "Normal" | "Warning", reason: string, action: string, message: string): Promise<void>;
}

export interface StoreEventRecorderOptions {
  /** source.component / reportingComponent, e.g. `ipallocator-repair-controller`. */
  component: string;
  /** reportingInstance; default the component name. */
  instance?: string;
  now?: () => Date;
  log?: (msg: string) => void;
}

/** An EventRecorder writing to `store`. */
export class StoreEventRecorder implements EventRecorder {
  readonly #store: Store;
  readonly #o: StoreEventRecorderOptions;
  /** correlation key -> storage key of the Event already written. */
  readonly #seen = new Map<string, string>();

  constructor(store: Store, opts: StoreEventRecorderOptions) {
    this.#store = store;
    this.#o = opts;
  }

  async eventf(
    regarding: ObjectReference,
    eventtype: "Normal" | "Warning",
    reason: string,
    action: string,
    message: string,
  ): Promise<void> {
    const now = (this.#o.now?.() ?? new Date()).toISOString().replace(/\.\d+Z$/, "Z");
    const ns = regarding.namespace || "default";
    const name = regarding.name ?? "";
    const corr = JSON.stringify([regarding.kind, ns, name, regarding.uid ?? "", eventtype, reason, message]);
    try {
      const existing = this.#seen.get(corr);
      if (existing !== undefined) {
        const bumped = await this.#store
          .guaranteedUpdate(existing, (cur) => ({ ...cur, count: Number(cur["count"] ?? 1) + 1, lastTimestamp: now }), {
            ignoreNotFound: false,
          })
          .catch(() => null);
        if (bumped) return;
      }
      const eventName = `${name}.${randomBytes(8).toString("hex")}`;
      const key = objectKey("events", ns, eventName);
      const ev: KubeObject = {
        apiVersion: "v1",
        kind: "Event",
        metadata: { name: eventName, namespace: ns },
        involvedObject: { ...regarding, namespace: regarding.namespace ?? "" },
        reason,
        message,
        source: { component: this.#o.component },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
        type: eventtype,
        eventTime: null,
        action,
        reportingComponent: this.#o.component,
        reportingInstance: this.#o.instance ?? this.#o.component,
      };
      await this.#store.create(key, ev);
      this.#seen.set(corr, key);
    } catch (e) {
      this.#o.log?.(`event ${reason} for ${regarding.kind ?? ""} ${name} not recorded: ${String(e)}`);
    }
  }
}

/** A recorder that keeps events in memory ("Warning Reason message"), for unit tests (client-go FakeRecorder). */
export class FakeRecorder implements EventRecorder {
  readonly events: string[] = [];

  async eventf(_regarding: ObjectReference, eventtype: string, reason: string, _action: string, message: string): Promise<void> {
    this.events.push(`${eventtype} ${reason} ${message}`);
  }
}

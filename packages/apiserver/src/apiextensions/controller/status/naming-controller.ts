/**
 * NamingConditionController (apiextensions-apiserver pkg/controller/status/naming_controller.go):
 * accepts a CRD's requested names unless another CRD of the group already holds them, and records
 * the result in `status.acceptedNames` and the NamesAccepted condition. Established starts False
 * ("Installing") once the names are accepted; the establishing controller turns it True.
 */
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import {
  findCRDCondition,
  setCRDCondition,
  type CustomResourceDefinition,
  type CustomResourceDefinitionCondition,
  type CustomResourceDefinitionNames,
} from "@servicenet/api/apiextensions/v1";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { GenericStore } from "../../../registry/generic/store.ts";
import { jsonEqual } from "../../../registry/generic/strategy.ts";
import { deepEqual } from "../../../server/patch/json-value.ts";
import type { CRDObject } from "../../registry/customresourcedefinition/strategy.ts";
import type { Lister, StoreInformer } from "../../../util/informer/store-informer.ts";
import { runWorker } from "../queue-worker.ts";
import { updateCachedCRDStatus } from "../status-update.ts";

type Names = CustomResourceDefinitionNames;

/** The names the group's CRDs have been granted (getAcceptedNamesForGroup). */
function acceptedNamesForGroup(crds: readonly CustomResourceDefinition[], group: string): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const c of crds) {
    if (c.spec.group !== group) continue;
    const a = c.status?.acceptedNames;
    for (const n of [a?.plural ?? "", a?.singular ?? "", ...(a?.shortNames ?? [])]) resources.add(n);
    kinds.add(a?.kind ?? "");
    kinds.add(a?.listKind ?? "");
  }
  return { resources, kinds };
}

/** equalToAcceptedOrFresh: undefined when the name may be taken, else the conflict. */
function conflict(requested: string, accepted: string, used: ReadonlySet<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

/** calculateNamesAndConditions. */
export function calculateNamesAndConditions(
  crd: CustomResourceDefinition,
  all: readonly CustomResourceDefinition[],
): { names: Names; namesAccepted: CustomResourceDefinitionCondition; established: CustomResourceDefinitionCondition } {
  const { resources, kinds } = acceptedNamesForGroup(all, crd.spec.group);
  const requested = crd.spec.names;
  const accepted: Names = crd.status?.acceptedNames ?? { plural: "", kind: "" };
  const names: Names = structuredClone(accepted);
  let cond: CustomResourceDefinitionCondition = { type: "NamesAccepted", status: "Unknown" };
  const check = (reason: string, err: string | undefined, accept: () => void): void => {
    if (err === undefined) return accept();
    cond = { type: "NamesAccepted", status: "False", reason, message: err };
  };
  check("PluralConflict", conflict(requested.plural, accepted.plural, resources), () => (names.plural = requested.plural));
  check(
    "SingularConflict",
    conflict(requested.singular ?? "", accepted.singular ?? "", resources),
    () => (names.singular = requested.singular),
  );
  if (!jsonEqual(requested.shortNames, accepted.shortNames)) {
    const mine = new Set(accepted.shortNames ?? []);
    const errs = (requested.shortNames ?? [])
      .filter((s) => !mine.has(s) && s !== accepted.plural && s !== accepted.singular)
      .map((s) => conflict(s, "", resources))
      .filter((e): e is string => e !== undefined);
    // utilerrors.NewAggregate's message: one bare, several in brackets.
    check("ShortNamesConflict", errs.length === 0 ? undefined : errs.length === 1 ? errs[0] : `[${errs.join(", ")}]`, () => {
      if (requested.shortNames === undefined) delete names.shortNames;
      else names.shortNames = requested.shortNames;
    });
  }
  check("KindConflict", conflict(requested.kind, accepted.kind, kinds), () => (names.kind = requested.kind));
  check(
    "ListKindConflict",
    conflict(requested.listKind ?? "", accepted.listKind ?? "", kinds),
    () => (names.listKind = requested.listKind),
  );
  if (requested.categories === undefined) delete names.categories;
  else names.categories = requested.categories;
  if (cond.status === "Unknown") cond = { type: "NamesAccepted", status: "True", reason: "NoConflicts", message: "no conflicts found" };

  let established: CustomResourceDefinitionCondition = findCRDCondition(crd, "Established") ?? {
    type: "Established",
    status: "False",
    reason: "NotAccepted",
    message: "not all names are accepted",
  };
  if (established.status !== "True" && cond.status === "True")
    established = { type: "Established", status: "False", reason: "Installing", message: "the initial names have been accepted" };
  return { names, namesAccepted: cond, established };
}

const sameCondition = (a: CustomResourceDefinitionCondition, b: CustomResourceDefinitionCondition | undefined): boolean =>
  b !== undefined && a.status === b.status && a.reason === b.reason && a.message === b.message;

/** The controller: one worker, as upstream (the conflict resolution is not thread-safe). */
export class NamingConditionController {
  readonly #queue = new RateLimitingQueue("crd_naming_condition_controller");
  readonly #crds: Lister<CRDObject>;
  readonly #store: GenericStore;
  readonly #logger: Logger;
  readonly #now: () => string;

  constructor(informer: StoreInformer<CRDObject>, store: GenericStore, now: () => string, logger: Logger = noopLogger) {
    this.#crds = informer;
    this.#store = store;
    this.#now = now;
    this.#logger = logger;
    const enqueue = (o: CRDObject): void => this.#queue.add(o.metadata.name ?? "");
    informer.addEventHandler({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n), onDelete: enqueue });
  }

  /** Runs the worker until stop(). */
  run(): Promise<void> {
    return runWorker(this.#queue, (k) => this.sync(k), this.#logger);
  }

  stop(): void {
    this.#queue.shutDown();
  }

  /** Reconciles one CRD by name. */
  async sync(name: string): Promise<void> {
    const cached = this.#crds.get(name);
    if (cached === undefined) return this.#requeueGroup(name);
    // Names all accepted: nothing to calculate. Compared as Go's reflect.DeepEqual compares them, in
    // any key order (the accepted names are written in another order than a client writes the
    // spec's), so the requeue of a group's CRDs after each write does not recalculate them all.
    if (deepEqual(cached.spec.names, cached.status?.acceptedNames)) return;
    const all = this.#crds.list();
    const { names, namesAccepted, established } = calculateNamesAndConditions(cached, all);
    if (jsonEqual(cached.status?.acceptedNames, names) && sameCondition(namesAccepted, findCRDCondition(cached, "NamesAccepted"))) return;
    const written = await updateCachedCRDStatus(this.#store, cached, (crd) => {
      (crd.status ??= {}).acceptedNames = names;
      setCRDCondition(crd, namesAccepted, this.#now());
      setCRDCondition(crd, established, this.#now());
    });
    // Deleted or changed meanwhile: the informer's event brings it back.
    if (!written) return;
    this.#requeueGroup(name);
  }

  /** requeueAllOtherGroupCRDs: a name may have been freed or taken. */
  #requeueGroup(name: string): void {
    const group = name.slice(name.indexOf(".") + 1);
    for (const c of this.#crds.list()) if (c.spec.group === group && c.metadata.name !== name) this.#queue.add(c.metadata.name ?? "");
  }
}

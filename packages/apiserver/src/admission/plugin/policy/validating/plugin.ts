/**
 * The ValidatingAdmissionPolicy admission plugin (k8s.io/apiserver/pkg/admission/plugin/policy/
 * validating/plugin.go over policy/generic/plugin.go and policy_source.go): policies and bindings
 * are followed through informers over the apiserver's own storage, each policy is compiled once
 * per resourceVersion, param kinds get an informer of their own when a policy names them, and
 * every request is dispatched to the matching bindings.
 */
import { labelSelectorAsSelector, StatusError } from "@servicenet/api";
import type {
  ParamKind,
  ParamRef,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from "@servicenet/api/admissionregistration/v1";
import type { KubeObject, Store } from "../../../../storage/index.ts";
import { StoreInformer, type Lister } from "../../../../util/informer/store-informer.ts";
import type { Attributes } from "../../../attributes.ts";
import type { Authorizer } from "../../../../authorization/authorizer/interfaces.ts";
import type { EquivalentResourceMapper } from "../../../equivalent-resources.ts";
import { newForbidden } from "../../../errors.ts";
import type { AdmissionContext, AdmissionPlugin } from "../../../interfaces.ts";
import { CachingAuthorizer } from "./caching-authorizer.ts";
import { compilePolicy, type PolicyCompileOptions } from "./compile.ts";
import { dispatch, type DispatchResult, type DispatchSources, type PolicyWithCompiled } from "./dispatcher.ts";

export const validatingAdmissionPolicyPluginName = "ValidatingAdmissionPolicy";

/** Where a param kind is stored (the served resource of its apiVersion and kind). */
export interface ParamResource {
  storagePath: string;
  namespaced: boolean;
}

export interface ValidatingAdmissionPolicyPluginOptions {
  store: Store;
  /** The namespace informer the server already keeps (namespaceObject and namespaceSelector). */
  namespaces: Lister<KubeObject> & { start?(): void };
  /** The served resource of a param kind, built-in or custom; undefined when none serves it. */
  resolveParamKind(kind: ParamKind): ParamResource | undefined;
  policiesStoragePath: string;
  bindingsStoragePath: string;
  /** The server's authorizer, asked by the `authorizer` variable; without it the variable is unbound. */
  authorizer?: Authorizer;
  /** The AuthorizeWithSelectors feature gate (default on): `fieldSelector()`/`labelSelector()` compile. */
  authorizeWithSelectors?: boolean;
  /**
   * The StrictCostEnforcementForVAP feature gate (default on; only an emulated 1.31 may turn it
   * off): expressions are charged the CEL library functions' costs.
   */
  strictCost?: boolean;
  /** Equivalent resources and their conversion, for matchConstraints' matchPolicy Equivalent. */
  equivalentResources?: EquivalentResourceMapper;
  /**
   * Group resources no policy judges, whatever its rules say (generic/plugin.go
   * SetExcludedAdmissionResources; kube-apiserver hands over exclusion.Excluded(), the reviews).
   */
  excludedResources?: readonly { group: string; resource: string }[];
}

/** The policies' own resources are never subject to policies (generic/plugin.go isPolicyResource). */
function isPolicyResource(a: Attributes): boolean {
  return (
    a.resource.group === "admissionregistration.k8s.io" &&
    [
      "validatingadmissionpolicies",
      "validatingadmissionpolicybindings",
      "mutatingadmissionpolicies",
      "mutatingadmissionpolicybindings",
    ].includes(a.resource.resource)
  );
}

/** The plugin; `stop()` ends its informers. */
export class ValidatingAdmissionPolicyPlugin implements AdmissionPlugin {
  readonly name = validatingAdmissionPolicyPluginName;
  readonly #o: ValidatingAdmissionPolicyPluginOptions;
  readonly #policies: StoreInformer<ValidatingAdmissionPolicy & KubeObject>;
  readonly #bindings: StoreInformer<ValidatingAdmissionPolicyBinding & KubeObject>;
  readonly #compiled = new Map<string, { resourceVersion: string; compiled: PolicyWithCompiled }>();
  readonly #params = new Map<string, StoreInformer>();

  get #gates(): PolicyCompileOptions {
    return { authorizeWithSelectors: this.#o.authorizeWithSelectors ?? true, strictCost: this.#o.strictCost ?? true };
  }

  constructor(o: ValidatingAdmissionPolicyPluginOptions) {
    this.#o = o;
    this.#policies = new StoreInformer(o.store, o.policiesStoragePath);
    this.#bindings = new StoreInformer(o.store, o.bindingsStoragePath);
    this.#policies.start();
    this.#bindings.start();
  }

  handles(): boolean {
    return true;
  }

  async validate(a: Attributes, ctx: AdmissionContext): Promise<void> {
    if (isPolicyResource(a) || this.#isExcluded(a)) return;
    // Upstream answers "not yet ready" until its informers synced; here the request waits for them.
    if (!this.#policies.hasSynced() || !this.#bindings.hasSynced()) {
      await Promise.all([this.#policies.waitForSync(), this.#bindings.waitForSync()]);
    }
    const bindings = this.#bindings.list();
    if (bindings.length === 0) return;
    const policies = this.#compiledPolicies(new Set(bindings.map((b) => b.spec.policyName ?? "")));
    if (policies.length === 0) return;
    await this.#syncParams(policies);
    if (a.namespace !== "") {
      this.#o.namespaces.start?.();
      if (!this.#o.namespaces.hasSynced()) await waitSynced(this.#o.namespaces);
    }
    let result: DispatchResult = { warnings: [], auditAnnotations: {} };
    // One caching authorizer per request (dispatcher.go Dispatch); a pass that had to wait for
    // decisions is run again with a fresh result, so its warnings and annotations are not kept.
    const authz = this.#o.authorizer && new CachingAuthorizer(this.#o.authorizer);
    const sources = this.#sources(authz);
    const once = (): void => {
      result = { warnings: [], auditAnnotations: {} };
      dispatch(policies, bindings, a, sources, result);
    };
    try {
      if (authz !== undefined) await authz.evaluate(once);
      else once();
    } catch (e) {
      if (e instanceof StatusError) throw e;
      throw newForbidden(a, e instanceof Error ? e.message : String(e));
    } finally {
      for (const w of result.warnings) if (!ctx.warnings.includes(w)) ctx.warnings.push(w);
      Object.assign(ctx.auditAnnotations, result.auditAnnotations);
    }
  }

  /** generic/plugin.go Dispatch: the request's group resource is one of the excluded ones. */
  #isExcluded(a: Attributes): boolean {
    const { group, resource } = a.resource;
    return (this.#o.excludedResources ?? []).some((gr) => gr.group === group && gr.resource === resource);
  }

  /** The bound policies, compiled once per resourceVersion. */
  #compiledPolicies(bound: ReadonlySet<string>): PolicyWithCompiled[] {
    const out: PolicyWithCompiled[] = [];
    for (const policy of this.#policies.list()) {
      const name = policy.metadata.name ?? "";
      if (!bound.has(name)) continue;
      const rv = policy.metadata.resourceVersion ?? "";
      let c = this.#compiled.get(name);
      if (c?.resourceVersion !== rv) {
        c = { resourceVersion: rv, compiled: { policy, compiled: compilePolicy(policy, this.#gates) } };
        this.#compiled.set(name, c);
      }
      out.push(c.compiled);
    }
    if (this.#compiled.size > out.length * 2 + 16) this.#forgetDeleted();
    return out;
  }

  #forgetDeleted(): void {
    const live = new Set(this.#policies.list().map((p) => p.metadata.name ?? ""));
    for (const k of this.#compiled.keys()) if (!live.has(k)) this.#compiled.delete(k);
  }

  /** Starts (once) and waits for the informer of every param kind the policies name. */
  async #syncParams(policies: readonly PolicyWithCompiled[]): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const p of policies) {
      const kind = p.policy.spec.paramKind;
      if (kind === undefined) continue;
      const inf = this.#paramInformer(kind);
      if (inf && !inf.hasSynced()) waits.push(inf.waitForSync());
    }
    await Promise.all(waits);
  }

  #paramInformer(kind: ParamKind): StoreInformer | undefined {
    const r = this.#o.resolveParamKind(kind);
    if (r === undefined) return undefined;
    let inf = this.#params.get(r.storagePath);
    if (inf === undefined) {
      inf = new StoreInformer(this.#o.store, r.storagePath);
      inf.start();
      this.#params.set(r.storagePath, inf);
    }
    return inf;
  }

  #sources(authz: CachingAuthorizer | undefined): DispatchSources {
    return {
      namespace: (name) => this.#o.namespaces.get(name),
      ...(this.#o.equivalentResources ? { equivalentResources: this.#o.equivalentResources } : {}),
      params: (kind, ref, namespace) => this.#findParams(kind, ref, namespace),
      ...(authz ? { authorize: authz.authorize, beginExpression: authz.beginExpression } : {}),
    };
  }

  /** The param objects `ref` selects: by name, else by label selector (in `namespace` for a namespaced kind). */
  #findParams(kind: ParamKind, ref: ParamRef, namespace: string): unknown[] | undefined {
    const r = this.#o.resolveParamKind(kind);
    const inf = r && this.#params.get(r.storagePath);
    if (r === undefined || inf === undefined) return undefined;
    const ns = r.namespaced ? namespace : "";
    if (ref.name !== undefined && ref.name !== "") {
      const obj = inf.get(ns !== "" ? `${ns}/${ref.name}` : ref.name);
      return obj === undefined ? [] : [obj];
    }
    const selects = labelSelectorAsSelector(ref.selector ?? {});
    return inf
      .list()
      .filter((o) => (ns === "" || o.metadata.namespace === ns) && selects(o.metadata["labels"] as Record<string, string> | undefined));
  }

  stop(): void {
    this.#policies.stop();
    this.#bindings.stop();
    for (const inf of this.#params.values()) inf.stop();
  }
}

async function waitSynced(l: Lister<KubeObject>): Promise<void> {
  const w = (l as { waitForSync?: () => Promise<void> }).waitForSync;
  if (w) await w.call(l);
}

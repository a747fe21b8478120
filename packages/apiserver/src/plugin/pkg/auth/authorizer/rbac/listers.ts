/**
 * The RBAC authorizer's listers (plugin/pkg/auth/authorizer/rbac/rbac.go RoleGetter,
 * RoleBindingLister, ClusterRoleGetter, ClusterRoleBindingLister) over the apiserver's in-process
 * informers of the four RBAC kinds, so that no request reads storage. Upstream lists every
 * binding per request; here the bindings are also indexed by the subjects they name, so a request
 * looks at the bindings of its user name and groups only (the resolver still checks each one).
 */
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from "@servicenet/api";
import { groupKind, serviceAccountKind, userKind } from "@servicenet/api/rbac/v1";
import type { UserInfo } from "../../../../../authentication/user/user.ts";
import type { KubeObject, Store } from "../../../../../storage/index.ts";
import { objectCacheKey, StoreInformer } from "../../../../../util/informer/store-informer.ts";
import {
  roleNotFound,
  serviceAccountUsername,
  type ClusterRoleBindingLister,
  type ClusterRoleGetter,
  type RoleBindingLister,
  type RoleGetter,
} from "../../../../../registry/rbac/validation/rule.ts";

type Binding = RoleBinding | ClusterRoleBinding;

/** The index keys of the subjects a binding names (`u:<user name>`, `g:<group>`); subjects that can never apply have none. */
export function subjectIndexKeys(subjects: readonly Subject[] | null | undefined, bindingNamespace: string): string[] {
  const keys = new Set<string>();
  for (const s of subjects ?? []) {
    if (s.kind === userKind) keys.add(`u:${s.name}`);
    else if (s.kind === groupKind) keys.add(`g:${s.name}`);
    else if (s.kind === serviceAccountKind) {
      const ns = s.namespace || bindingNamespace;
      if (ns !== "") keys.add(`u:${serviceAccountUsername(ns, s.name)}`);
    }
  }
  return [...keys];
}

function userIndexKeys(user: UserInfo): string[] {
  return [`u:${user.name}`, ...user.groups.map((g) => `g:${g}`)];
}

/** Bindings by `<namespace>\0<subject key>`, kept up to date by informer events. */
export class SubjectIndex<T extends Binding> {
  readonly #byKey = new Map<string, Map<string, T>>();
  readonly #keysOf = new Map<string, string[]>();

  set(obj: T): void {
    this.delete(obj);
    const id = objectCacheKey(obj);
    const ns = obj.metadata.namespace ?? "";
    const keys = subjectIndexKeys(obj.subjects, ns).map((k) => `${ns}\0${k}`);
    this.#keysOf.set(id, keys);
    for (const k of keys) {
      let m = this.#byKey.get(k);
      if (!m) this.#byKey.set(k, (m = new Map()));
      m.set(id, obj);
    }
  }

  delete(obj: T): void {
    const id = objectCacheKey(obj);
    for (const k of this.#keysOf.get(id) ?? []) {
      const m = this.#byKey.get(k);
      m?.delete(id);
      if (m?.size === 0) this.#byKey.delete(k);
    }
    this.#keysOf.delete(id);
  }

  /** The bindings in `namespace` ("" for cluster-scoped) naming the user or one of its groups. */
  forUser(namespace: string, user: UserInfo): T[] {
    const out = new Map<string, T>();
    for (const k of userIndexKeys(user)) {
      for (const [id, b] of this.#byKey.get(`${namespace}\0${k}`) ?? []) out.set(id, b);
    }
    return [...out.values()];
  }
}

/** The four RBAC informers with the getters and indexed listers the rule resolver reads. */
export class RBACInformers implements RoleGetter, RoleBindingLister, ClusterRoleGetter, ClusterRoleBindingLister {
  readonly roles: StoreInformer<Role & KubeObject>;
  readonly roleBindings: StoreInformer<RoleBinding & KubeObject>;
  readonly clusterRoles: StoreInformer<ClusterRole & KubeObject>;
  readonly clusterRoleBindings: StoreInformer<ClusterRoleBinding & KubeObject>;
  readonly #rbIndex = new SubjectIndex<RoleBinding>();
  readonly #crbIndex = new SubjectIndex<ClusterRoleBinding>();

  constructor(store: Store) {
    this.roles = new StoreInformer(store, "roles");
    this.roleBindings = new StoreInformer(store, "rolebindings");
    this.clusterRoles = new StoreInformer(store, "clusterroles");
    this.clusterRoleBindings = new StoreInformer(store, "clusterrolebindings");
    indexInto(this.roleBindings, this.#rbIndex);
    indexInto(this.clusterRoleBindings, this.#crbIndex);
  }

  start(): void {
    for (const i of this.#all()) i.start();
  }

  async waitForSync(): Promise<void> {
    await Promise.all(this.#all().map((i) => i.waitForSync()));
  }

  hasSynced(): boolean {
    return this.#all().every((i) => i.hasSynced());
  }

  stop(): void {
    for (const i of this.#all()) i.stop();
  }

  getRole(namespace: string, name: string): Role {
    const r = this.roles.get(`${namespace}/${name}`);
    if (!r) throw roleNotFound("role", name);
    return r;
  }

  getClusterRole(name: string): ClusterRole {
    const r = this.clusterRoles.get(name);
    if (!r) throw roleNotFound("clusterrole", name);
    return r;
  }

  listRoleBindings(namespace: string, user?: UserInfo): readonly RoleBinding[] {
    if (user) return this.#rbIndex.forUser(namespace, user);
    return this.roleBindings.list().filter((b) => b.metadata.namespace === namespace);
  }

  listClusterRoleBindings(user?: UserInfo): readonly ClusterRoleBinding[] {
    if (user) return this.#crbIndex.forUser("", user);
    return this.clusterRoleBindings.list();
  }

  #all(): StoreInformer[] {
    return [this.roles, this.roleBindings, this.clusterRoles, this.clusterRoleBindings] as StoreInformer[];
  }
}

function indexInto<T extends Binding & KubeObject>(inf: StoreInformer<T>, index: SubjectIndex<T>): void {
  inf.addEventHandler({
    onAdd: (o) => index.set(o),
    onUpdate: (_, o) => index.set(o),
    onDelete: (o) => index.delete(o),
  });
}

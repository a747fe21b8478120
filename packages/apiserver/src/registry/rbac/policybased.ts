/**
 * The shape shared by pkg/registry/rbac/<kind>/policybased/storage.go: the generic store with a
 * check before a create and inside an update (upstream rest.WrapUpdatedObjectInfo, so a patch is
 * checked on its result). The check runs only when the request has a user and the server has a
 * rule resolver; in-process servers without authentication write as before.
 */
import type { UserInfo } from "../../authentication/user/user.ts";
import type { AuthorizationRuleResolver, Authorizer } from "../../authorization/authorizer/interfaces.ts";
import type { KubeObject, Store } from "../../storage/index.ts";
import type { UpdatedObjectInfo, UpdateParams, UpdateResult, WriteParams } from "../generic/options.ts";
import { GenericStore, type GenericStoreConfig } from "../generic/store.ts";

/** What the RBAC storages check writes with (the server's authorizer and rule resolver). */
export interface RBACStorageOptions {
  /** Answers the `escalate` and `bind` checks; without it only held rights count. */
  authorizer?: Authorizer;
  /** The rules a user holds; without it no write is checked. */
  ruleResolver?: AuthorizationRuleResolver;
}

/** The checks one RBAC kind makes (its policybased Storage's Create and Update). */
export interface PolicyCheck {
  /** EscalationAllowed (|| RoleEscalationAuthorized for roles): no further check for this request. */
  allowed(user: UserInfo, namespace: string, name: string): Promise<boolean>;
  /** Throws Forbidden when `obj` grants what the user may not; `old` is null on create. */
  check(user: UserInfo, namespace: string, obj: KubeObject, old: KubeObject | null): Promise<void>;
}

/** A GenericStore whose creates and updates pass a {@link PolicyCheck} first. */
export class PolicyBasedStore extends GenericStore {
  private readonly policy: PolicyCheck;
  private readonly enabled: boolean;

  constructor(store: Store, config: GenericStoreConfig, opts: RBACStorageOptions, policy: PolicyCheck) {
    super(store, config);
    this.policy = policy;
    this.enabled = opts.ruleResolver !== undefined;
  }

  private checkedUser(p: WriteParams): UserInfo | undefined {
    return this.enabled ? p.user : undefined;
  }

  override async create(namespace: string | undefined, obj: KubeObject, p: WriteParams = {}): Promise<KubeObject> {
    const user = this.checkedUser(p);
    if (user !== undefined && !(await this.policy.allowed(user, namespace ?? "", ""))) {
      await this.policy.check(user, namespace ?? "", obj, null);
    }
    return super.create(namespace, obj, p);
  }

  override async update(
    namespace: string | undefined,
    name: string,
    objInfo: UpdatedObjectInfo,
    p: UpdateParams = {},
  ): Promise<UpdateResult> {
    const user = this.checkedUser(p);
    if (user === undefined || (await this.policy.allowed(user, namespace ?? "", name))) return super.update(namespace, name, objInfo, p);
    const checked: UpdatedObjectInfo = async (current) => {
      const obj = await objInfo(current);
      await this.policy.check(user, namespace ?? "", obj, current);
      return obj;
    };
    return super.update(namespace, name, checked, p);
  }
}

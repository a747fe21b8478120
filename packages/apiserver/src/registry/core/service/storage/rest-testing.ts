/**
 * Test wiring for ServiceREST (upstream storage_test.go newStorage): a memory Store, the test
 * allocators of `testing.ts` for one cluster mode, and the Service strategy.
 */
import type { Service } from "@servicenet/api";
import { createStore, type KubeObject, type Store } from "../../../../storage/index.ts";
import type { GenericStoreConfig } from "../../../generic/store.ts";
import { serviceStrategy } from "../strategy.ts";
import { ServiceREST, type ServiceRESTOptions } from "./rest.ts";
import { makeService, makeTestAllocators, type ClusterMode, type TestAllocators, type TestService, type Tweak } from "./testing.ts";

/** The services entry of the resource table, as the server builds it. */
export const serviceStoreConfig: GenericStoreConfig = {
  group: "",
  resource: "services",
  storagePath: "services/specs",
  strategy: serviceStrategy,
};

export interface TestREST {
  rest: ServiceREST;
  store: Store;
  t: TestAllocators;
}

/** A ServiceREST over `store` (a fresh memory Store by default), restored from what it holds. */
export async function newTestREST(mode: ClusterMode, store?: Store, extra: Partial<ServiceRESTOptions> = {}, seed = 1): Promise<TestREST> {
  const s = store ?? (await createStore({ backend: "memory" }));
  const t = makeTestAllocators(mode, seed);
  const rest = await ServiceREST.create(s, serviceStoreConfig, { allocators: t.alloc, ...extra });
  return { rest, store: s, t };
}

/** A request body: makeService + tweaks, with the versioned defaults the server applies on decode. */
export function body(name: string, ...tweaks: Tweak[]): KubeObject {
  const obj: Service = makeService(name, ...tweaks);
  serviceStrategy.defaults?.(obj);
  return obj;
}

/** The spec of a stored/returned object, typed for assertions. */
export function specOf(obj: KubeObject): TestService["spec"] & { healthCheckNodePort?: number } {
  return obj["spec"] as TestService["spec"] & { healthCheckNodePort?: number };
}

/** A Store whose writes fail on demand (fault injection after allocation). */
export function faultyStore(inner: Store, fail: { create?: boolean; update?: boolean; delete?: boolean }): Store {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === "create" && fail.create) return async () => Promise.reject(new Error("injected storage failure"));
      if (prop === "guaranteedUpdate" && fail.update) return async () => Promise.reject(new Error("injected storage failure"));
      if (prop === "delete" && fail.delete) return async () => Promise.reject(new Error("injected storage failure"));
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

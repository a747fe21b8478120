/**
 * Upstream apiextensions-apiserver test/integration/storage/objectreader.go (EtcdObjectReader) for
 * this server's etcd backend: custom resources and CRDs read and written in etcd directly, past
 * the apiserver, under the key layout storage/keys.ts gives them (`/registry/<group>/<plural>/<ns>/<name>`,
 * `/registry/apiextensions.k8s.io/customresourcedefinitions/<name>`) and the codec's JSON.
 * Tests using it run only when SERVICENET_ETCD_ENDPOINTS names an etcd, as the storage suites do.
 */
import { randomUUID } from "node:crypto";
import { Etcd3 } from "etcd3";
import type { StoreConfig } from "../../../storage/index.ts";
import { etcdEndpointsFromEnv } from "../../../storage/testing.ts";

import type { Obj } from "./multiversion-fixture-testing.ts";

/** An apiserver's etcd storage under a key prefix of its own, or undefined without an etcd. */
export function etcdTestStorage(): StoreConfig | undefined {
  const endpoints = etcdEndpointsFromEnv();
  return endpoints === undefined ? undefined : { backend: "etcd", endpoints, prefix: `/servicenet-test/${randomUUID()}` };
}

/** EtcdObjectReader: the stored form of the objects of `storage`'s apiserver. */
export class EtcdObjectReader {
  readonly #client: Etcd3;
  readonly #root: string;

  constructor(storage: StoreConfig) {
    this.#client = new Etcd3({ hosts: storage.endpoints ?? [] });
    this.#root = `${storage.prefix ?? ""}/registry`;
  }

  /** GetStoredCustomResource: the custom resource as stored, or an error naming its key. */
  async getStoredCustomResource(group: string, plural: string, ns: string, name: string): Promise<Obj> {
    const key = `${this.#root}/${group}/${plural}/${ns}/${name}`;
    const raw = await this.#client.get(key).string();
    if (raw === null) throw new Error(`no storage object found for ${ns}, ${name} in etcd for key ${key}`);
    return JSON.parse(raw) as Obj;
  }

  /** SetStoredCustomResource: writes `obj` as the stored custom resource. */
  async setStoredCustomResource(group: string, plural: string, ns: string, name: string, obj: Obj): Promise<void> {
    await this.#client.put(`${this.#root}/${group}/${plural}/${ns}/${name}`).value(JSON.stringify(obj));
  }

  /** The CRD as stored. */
  async getStoredCustomResourceDefinition(name: string): Promise<Obj> {
    const raw = await this.#client.get(this.#crdKey(name)).string();
    if (raw === null) throw new Error(`no CRD ${name} in etcd`);
    return JSON.parse(raw) as Obj;
  }

  /** SetStoredCustomResourceDefinition: writes `crd` in etcd, past validation. */
  async setStoredCustomResourceDefinition(name: string, crd: Obj): Promise<void> {
    const { resourceVersion: _rv, ...meta } = crd.metadata;
    await this.#client.put(this.#crdKey(name)).value(JSON.stringify({ ...crd, metadata: meta }));
  }

  /** Removes every key of this apiserver's storage and closes the client. */
  async close(): Promise<void> {
    try {
      await this.#client
        .delete()
        .prefix(this.#root.slice(0, -"/registry".length) + "/")
        .exec();
    } finally {
      this.#client.close();
    }
  }

  #crdKey(name: string): string {
    return `${this.#root}/apiextensions.k8s.io/customresourcedefinitions/${name}`;
  }
}

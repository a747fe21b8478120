/**
 * Upstream test/integration/change_test.go (TestChangeCRD) over HTTP: while the noxu CRD's
 * versions change back and forth (v2 added, then removed), ten clients create and read their
 * object and ten watch the resource; every read succeeds and every watch event is ADDED,
 * MODIFIED or DELETED. Upstream soaks for five seconds; here the CRD changes a fixed number of
 * times and the readers and watchers run until it is done.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, json, noxuCRD } from "./fixtures-testing.ts";

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus.mygroup.example.com";
const noxus = "/apis/mygroup.example.com/v1beta1/namespaces/default/noxus";
const crdChanges = 10;

interface CRD {
  spec: { versions: { name: string; served: boolean; storage: boolean }[] };
}

describe("apiextensions change_test", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, noxuCRD("Namespaced"));
  });
  afterAll(async () => {
    await s?.close();
  });

  it("TestChangeCRD", async () => {
    const errors: string[] = [];
    let stopped = false;
    let changed = 0;

    // The loop modifying the CRD in the background: a conflict is fine, anything else is not.
    const changer = async (): Promise<void> => {
      for (let i = 0; i < crdChanges; i++) {
        const got = await s.request(crdPath);
        if (got.status !== 200) {
          errors.push(`get CRD: ${got.status} ${got.text}`);
          continue;
        }
        const crd = got.json() as CRD;
        if (crd.spec.versions.length === 1) crd.spec.versions.push({ ...crd.spec.versions[0]!, name: "v2", served: true, storage: false });
        else crd.spec.versions = crd.spec.versions.slice(0, 1);
        const put = await s.request(crdPath, { method: "PUT", headers: json, body: JSON.stringify(crd) });
        if (put.status === 200) changed++;
        else if (put.status !== 409) errors.push(`update CRD: ${put.status} ${put.text}`);
      }
      stopped = true;
    };

    const reader = async (i: number): Promise<void> => {
      const name = `foo-${i}`;
      const created = await s.request(noxus, {
        method: "POST",
        headers: json,
        body: JSON.stringify({
          apiVersion: "mygroup.example.com/v1beta1",
          kind: "WishIHadChosenNoxu",
          metadata: { namespace: "default", name },
          content: { key: "value" },
          num: { num1: Number.MAX_SAFE_INTEGER, num2: 1000000 },
        }),
      });
      if (created.status !== 201) {
        errors.push(`create ${name}: ${created.status} ${created.text}`);
        return;
      }
      while (!stopped) {
        const got = await s.request(`${noxus}/${name}`);
        if (got.status !== 200) errors.push(`get ${name}: ${got.status} ${got.text}`);
      }
    };

    const watcher = async (): Promise<void> => {
      while (!stopped) {
        const w = await s.request(`${noxus}?watch=true&timeoutSeconds=1`);
        if (w.status !== 200) {
          errors.push(`establishing watch: ${w.status} ${w.text}`);
          continue;
        }
        for (const line of w.text.split("\n").filter((l) => l !== "")) {
          const type = (JSON.parse(line) as { type: string }).type;
          if (!["ADDED", "MODIFIED", "DELETED"].includes(type)) errors.push(`unexpected watch event: ${line}`);
        }
      }
    };

    const loops: Promise<void>[] = [changer()];
    for (let i = 0; i < 10; i++) loops.push(reader(i), watcher());
    await Promise.all(loops);
    expect(errors).toEqual([]);
    expect(changed).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from "vitest";
import { inEndpointVersion } from "./endpoint-version.ts";

const ip = (apiVersion: string, kind = "IPAddress") => ({ apiVersion, kind, metadata: { name: "192.168.1.1" } });
const v1beta1 = { group: "networking.k8s.io", version: "v1beta1", kind: "IPAddress" };

describe("inEndpointVersion", () => {
  const rows: { name: string; obj: ReturnType<typeof ip>; want: string; same: boolean }[] = [
    { name: "another version of the kind", obj: ip("networking.k8s.io/v1"), want: "networking.k8s.io/v1beta1", same: false },
    { name: "the endpoint's own version", obj: ip("networking.k8s.io/v1beta1"), want: "networking.k8s.io/v1beta1", same: true },
    { name: "another kind (a subresource's)", obj: ip("autoscaling/v1", "Scale"), want: "autoscaling/v1", same: true },
    { name: "the same kind name in another group", obj: ip("example.com/v1"), want: "example.com/v1", same: true },
  ];
  for (const row of rows)
    it(row.name, () => {
      const before = row.obj.apiVersion;
      const out = inEndpointVersion(v1beta1, row.obj);
      expect(out.apiVersion).toBe(row.want);
      expect(out === row.obj).toBe(row.same);
      // The stored object is never changed.
      expect(row.obj.apiVersion).toBe(before);
    });
  it("is the core group's bare version", () => {
    expect(
      inEndpointVersion({ group: "", version: "v1", kind: "Pod" }, { apiVersion: "v2", kind: "Pod", metadata: { name: "p" } }).apiVersion,
    ).toBe("v1");
  });
});

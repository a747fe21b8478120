import { describe, expect, it } from "vitest";
import { aggregateMessage, field, fieldErrorString, path } from "./field-error.ts";

describe("field errors render as upstream's field.Error", () => {
  it.each([
    [field.required("spec.ipFamilyPolicy"), "spec.ipFamilyPolicy: Required value"],
    [field.required("spec.ports", "must specify at least one"), "spec.ports: Required value: must specify at least one"],
    [
      field.invalid("spec.clusterIPs[0]", "10.0.0.256", "must be a valid IP address"),
      'spec.clusterIPs[0]: Invalid value: "10.0.0.256": must be a valid IP address',
    ],
    [
      field.invalid("spec.ports[0].port", 70000, "must be between 1 and 65535, inclusive"),
      "spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
    ],
    [field.invalid("spec.ipFamilies", ["IPv4", "IPv4"], "x"), 'spec.ipFamilies: Invalid value: []string{"IPv4", "IPv4"}: x'],
    [field.duplicate("spec.ipFamilies[1]", "IPv4"), 'spec.ipFamilies[1]: Duplicate value: "IPv4"'],
    [
      field.notSupported("spec.type", "Foo", ["ClusterIP", "NodePort"]),
      'spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "NodePort"',
    ],
    [field.forbidden("spec.clusterIPs", "may not change once set"), "spec.clusterIPs: Forbidden: may not change once set"],
    [field.tooMany("spec.ipFamilies", 3, 2), "spec.ipFamilies: Too many: 3: must have at most 2 items"],
    [field.tooMany("spec.cidrs", -1, 1), "spec.cidrs: Too many: must have at most 1 item"],
    [field.tooLong("metadata.name", "x", 63), "metadata.name: Too long: may not be more than 63 bytes"],
    [field.invalid("spec.x", null, "null value"), 'spec.x: Invalid value: "null": null value'],
    [
      field.typeInvalid("spec.n", "string", 'spec.n in body must be of type integer: "string"'),
      'spec.n: Invalid value: "string": spec.n in body must be of type integer: "string"',
    ],
  ])("%#", (err, want) => {
    expect(fieldErrorString(err)).toBe(want);
  });

  it("builds paths with indexes", () => {
    expect(path("spec", "clusterIPs", 0)).toBe("spec.clusterIPs[0]");
    expect(path("spec", "ports", 2, "nodePort")).toBe("spec.ports[2].nodePort");
  });

  it("aggregates one bare and several in brackets, deduplicated", () => {
    const a = field.required("a");
    const b = field.required("b");
    expect(aggregateMessage([a])).toBe("a: Required value");
    expect(aggregateMessage([a, b, a])).toBe("[a: Required value, b: Required value]");
  });
});

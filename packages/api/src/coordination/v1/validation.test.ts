/** Upstream pkg/apis/coordination/validation/validation_test.go: TestValidateLease, TestValidateLeaseSpec, TestValidateLeaseSpecUpdate. */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/field-error.ts";
import type { Lease, LeaseSpec } from "./lease.ts";
import { validateLease, validateLeaseUpdate } from "./validation.ts";

const lease = (spec: LeaseSpec, name = "lease"): Lease => ({ metadata: { name, namespace: "default", resourceVersion: "1" }, spec });
const messages = (errs: ReturnType<typeof validateLease>): string[] => errs.map(fieldErrorString);

describe("validateLease", () => {
  it("TestValidateLease: a Lease without a name or namespace", () => {
    expect(messages(validateLease({ metadata: {} }))).toEqual([
      "metadata.name: Required value: name or generateName is required",
      "metadata.namespace: Required value",
    ]);
  });

  it.each<[string, LeaseSpec, string[]]>([
    ["a valid spec", { holderIdentity: "a", leaseDurationSeconds: 10, leaseTransitions: 0 }, []],
    ["leaseDurationSeconds 0", { leaseDurationSeconds: 0 }, ["spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0"]],
    ["leaseDurationSeconds -1", { leaseDurationSeconds: -1 }, ["spec.leaseDurationSeconds: Invalid value: -1: must be greater than 0"]],
    ["leaseTransitions -1", { leaseTransitions: -1 }, ["spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"]],
    ["a known strategy", { strategy: "OldestEmulationVersion" }, []],
    ["a prefixed strategy", { strategy: "foo.com/bar" }, []],
    [
      "an unknown strategy",
      { strategy: "foo" },
      ['spec.strategy.strategy: Unsupported value: "foo": supported values: "OldestEmulationVersion"'],
    ],
    [
      "a strategy that is no qualified name",
      { strategy: "foo/" },
      [
        'spec.strategy.strategy: Invalid value: "foo/": name part must be non-empty',
        "spec.strategy.strategy: Invalid value: \"foo/\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ],
    [
      "a preferredHolder without a strategy",
      { preferredHolder: "someone" },
      ["spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined"],
    ],
    ["a preferredHolder with a strategy", { preferredHolder: "someone", strategy: "OldestEmulationVersion" }, []],
  ])("TestValidateLeaseSpec: %s", (_name, spec, want) => {
    expect(messages(validateLease(lease(spec)))).toEqual(want);
    expect(messages(validateLeaseUpdate(lease(spec), lease({})))).toEqual(want);
  });

  it("TestValidateLeaseSpecUpdate: metadata update rules apply", () => {
    const old = { metadata: { name: "lease", namespace: "default", uid: "a", resourceVersion: "1" } };
    expect(
      messages(validateLeaseUpdate({ metadata: { name: "lease", namespace: "default", uid: "b", resourceVersion: "1" } }, old)),
    ).toEqual(['metadata.uid: Invalid value: "b": field is immutable']);
  });
});

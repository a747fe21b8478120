/**
 * Upstream test/integration/ratcheting_test.go TestRatchetingFunctionality over HTTP: each case
 * replaces or patches the v1beta1 schema of `mycrds.mygroup.example.com` and server-side applies
 * an object (and the same fields under `status`); a value the tightened schema rejects is kept
 * while it is unchanged from the old object (pkg/apiserver/validation/ratcheting.go), but
 * transition rules (`oldSelf`) are not ratcheted (pkg/apiserver/schema/cel/validation.go).
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD } from "./fixtures-testing.ts";
import { myCRD, runRatchetingCase } from "./ratcheting-fixtures-testing.ts";

const stringSchema = { type: "string" };
const numberSchema = { type: "integer" };
const stringMapSchema = { type: "object", additionalProperties: stringSchema };
const numbersMapSchema = { type: "object", additionalProperties: numberSchema };
const object = (properties: Record<string, unknown>) => ({ type: "object", properties });
const props = (properties: Record<string, unknown>) => ({ properties });

describe("TestRatchetingFunctionality", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await createCRD(s, myCRD());
  });
  afterAll(() => s.close());

  it("Minimum Maximum", () =>
    runRatchetingCase(s, [
      { schema: object({ hasMinimum: numberSchema, hasMaximum: numberSchema, hasMinimumAndMaximum: numberSchema }) },
      {
        description: "Create an object that complies with the schema",
        apply: { hasMinimum: 0, hasMaximum: 1000, hasMinimumAndMaximum: 50 },
      },
      {
        description: "Add stricter minimums and maximums that violate the previous object",
        patchSchema: props({
          hasMinimum: { minimum: 10 },
          hasMaximum: { maximum: 20 },
          hasMinimumAndMaximum: { minimum: 10, maximum: 20 },
          noRestrictions: { type: "integer" },
        }),
      },
      { description: "Add new fields that validates successfully without changing old ones", apply: { noRestrictions: 50 } },
      { description: "Change a single old field to be invalid", apply: { hasMinimum: 5 }, expectError: true },
      { description: "Change multiple old fields to be invalid", apply: { hasMinimum: 5, hasMaximum: 21 }, expectError: true },
      { description: "Change single old field to be valid", apply: { hasMinimum: 11 } },
      { description: "Change multiple old fields to be valid", apply: { hasMaximum: 19, hasMinimumAndMaximum: 15 } },
    ]));

  it("Enum", () =>
    runRatchetingCase(s, [
      { schema: object({ enumField: stringSchema }) },
      { description: "Create an instance with a soon-to-be-invalid value", apply: { enumField: "okValueNowBadValueLater" } },
      {
        description: "restrict `enumField` to an enum of A, B, or C",
        patchSchema: props({ enumField: { enum: ["A", "B", "C"] }, otherField: { type: "string" } }),
      },
      { description: "An invalid patch with no changes is a noop", apply: { enumField: "okValueNowBadValueLater" } },
      {
        description: "Add a new field, and include old value in our patch",
        apply: { enumField: "okValueNowBadValueLater", otherField: "anythingGoes" },
      },
      { description: "Set enumField to invalid value D", apply: { enumField: "D" }, expectError: true },
      { description: "Set to a valid value", apply: { enumField: "A" } },
      {
        description: "After setting a valid value, return to the old, accepted value",
        apply: { enumField: "okValueNowBadValueLater" },
        expectError: true,
      },
    ]));

  it("AdditionalProperties", () =>
    runRatchetingCase(s, [
      { schema: object({ nums: numbersMapSchema, content: stringMapSchema }) },
      {
        description: "Create an instance",
        apply: { nums: { num1: 1, num2: 1000000 }, content: { k1: "some content", k2: "other content" } },
      },
      {
        description: "set minimum value for fields with additionalProperties",
        patchSchema: props({ nums: { additionalProperties: { minimum: 1000 } } }),
      },
      {
        description: "updating validating field num2 to another validating value, but rachet invalid field num1",
        apply: { nums: { num1: 1, num2: 2000 } },
      },
      { description: "update field num1 to different invalid value", apply: { nums: { num1: 2, num2: 2000 } }, expectError: true },
    ]));

  it("MinProperties MaxProperties", () =>
    runRatchetingCase(s, [
      { schema: object({ restricted: stringMapSchema, unrestricted: stringMapSchema }) },
      { description: "Create instance", apply: { restricted: { key1: "hi", key2: "there" } } },
      {
        description: "set both minProperties and maxProperties to 1 to violate the previous object",
        patchSchema: props({ restricted: { minProperties: 1, maxProperties: 1 } }),
      },
      {
        description: "ratchet violating object 'restricted' around changes to unrelated field",
        apply: { restricted: { key1: "hi", key2: "there" }, unrestricted: { key1: "yo" } },
      },
      {
        description: "make invalid changes to previously ratcheted invalid field",
        apply: { restricted: { key1: "changed", key2: "there" }, unrestricted: { key1: "yo" } },
        expectError: true,
      },
      {
        description: "remove maxProeprties, set minProperties to 2",
        patchSchema: props({ restricted: { minProperties: 2, maxProperties: null } }),
      },
      { description: "a new value", apply: { restricted: { key1: "hi", key2: "there", key3: "buddy" } } },
      {
        description: "violate new validation by removing keys",
        apply: { restricted: { key1: "hi", key2: null, key3: null } },
        expectError: true,
      },
      {
        description: "remove minProperties, set maxProperties to 1",
        patchSchema: props({ restricted: { minProperties: null, maxProperties: 1 } }),
      },
      {
        description: "modify only the other key, ratcheting maxProperties for field `restricted`",
        apply: { restricted: { key1: "hi", key2: "there", key3: "buddy" }, unrestricted: { key1: "value", key2: "value" } },
      },
      {
        description: "modifying one value in the object with maxProperties restriction, but keeping old fields",
        apply: { restricted: { key1: "hi", key2: "theres", key3: "buddy" } },
        expectError: true,
      },
    ]));

  it("MinItems", () =>
    runRatchetingCase(s, [
      { schema: object({ field: stringSchema, array: { type: "array", items: stringSchema } }) },
      { description: "Create instance", apply: { array: ["value1", "value2", "value3"] } },
      { description: "change minItems on array to 10, invalidates previous object", patchSchema: props({ array: { minItems: 10 } }) },
      {
        description: "keep invalid field `array` unchanged, add new field with ratcheting",
        apply: { array: ["value1", "value2", "value3"], field: "value" },
      },
      {
        description: "modify array element without satisfying property",
        apply: { array: ["value2", "value2", "value3"] },
        expectError: true,
      },
      {
        description: "add array element without satisfying proeprty",
        apply: { array: ["value1", "value2", "value3", "value4"] },
        expectError: true,
      },
      {
        description: "make array valid",
        apply: { array: ["value1", "value2", "value3", "4", "5", "6", "7", "8", "9", "10"] },
      },
      { description: "revert to original value", apply: { array: ["value1", "value2", "value3"] }, expectError: true },
    ]));

  it("MaxItems", () =>
    runRatchetingCase(s, [
      { schema: object({ field: stringSchema, array: { type: "array", items: stringSchema } }) },
      { description: "create instance", apply: { array: ["value1", "value2", "value3"] } },
      { description: "change maxItems on array to 1, invalidates previous object", patchSchema: props({ array: { maxItems: 1 } }) },
      {
        description: "ratchet old value of array through an update to another field",
        apply: { array: ["value1", "value2", "value3"], field: "value" },
      },
      {
        description: "modify array element without satisfying property",
        apply: { array: ["value2", "value2", "value3"] },
        expectError: true,
      },
      { description: "remove array element without satisfying proeprty", apply: { array: ["value1", "value2"] }, expectError: true },
      { description: "change array to valid value that satisfies maxItems", apply: { array: ["value1"] } },
      {
        description: "revert to previous invalid ratcheted value",
        apply: { array: ["value1", "value2", "value3"] },
        expectError: true,
      },
    ]));

  it("MinLength MaxLength", () =>
    runRatchetingCase(s, [
      { schema: object({ minField: stringSchema, maxField: stringSchema, otherField: stringSchema }) },
      { description: "create instance", apply: { minField: "value", maxField: "valueThatsVeryLongSee" } },
      {
        description: "set minField maxLength to 10, and maxField's minLength to 15",
        patchSchema: props({ minField: { minLength: 10 }, maxField: { maxLength: 15 } }),
      },
      {
        description: "add new field `otherField`, ratcheting `minField` and `maxField`",
        apply: { minField: "value", maxField: "valueThatsVeryLongSee", otherField: "otherValue" },
      },
      {
        description: "make minField valid, ratcheting old value for maxField",
        apply: { minField: "valuelength13", maxField: "valueThatsVeryLongSee", otherField: "otherValue" },
      },
      { description: "make maxField shorter", apply: { maxField: "l2" } },
      { description: "make maxField too long", apply: { maxField: "valuewithlength17" }, expectError: true },
      { description: "revert minFIeld to previously ratcheted value", apply: { minField: "value" }, expectError: true },
      {
        description: "revert maxField to previously ratcheted value",
        apply: { maxField: "valueThatsVeryLongSee" },
        expectError: true,
      },
    ]));

  it("Pattern", () =>
    runRatchetingCase(s, [
      { schema: object({ field: stringSchema }) },
      { description: "create instance", apply: { field: "doesnt abide pattern" } },
      {
        description: "add pattern validation on `field`",
        patchSchema: props({ field: { pattern: "^[1-9]+$" }, otherField: { type: "string" } }),
      },
      {
        description: "add unrelated field, ratcheting old invalid field",
        apply: { field: "doesnt abide pattern", otherField: "added" },
      },
      { description: "change field to invalid value", apply: { field: "w123", otherField: "added" }, expectError: true },
      { description: "change field to a valid value", apply: { field: "123", otherField: "added" } },
    ]));

  it("Format Addition and Change", () =>
    runRatchetingCase(s, [
      { schema: object({ field: stringSchema }) },
      { description: "create instance", apply: { field: "doesnt abide any format" } },
      {
        description: "change `field`'s format to `byte",
        patchSchema: props({ field: { format: "byte" }, otherField: { type: "string" } }),
      },
      {
        description: "add unrelated otherField, ratchet invalid old field format",
        apply: { field: "doesnt abide any format", otherField: "value" },
      },
      { description: "change field to an invalid string", apply: { field: "asd" }, expectError: true },
      { description: "change field to a valid byte string", apply: { field: "dGhpcyBpcyBwYXNzd29yZA==" } },
      { description: "change `field`'s format to date-time", patchSchema: props({ field: { format: "date-time" } }) },
      {
        description: "change otherField, ratchet `field`'s invalid byte format",
        apply: { field: "dGhpcyBpcyBwYXNzd29yZA==", otherField: "value2" },
      },
      { description: "change `field` to a valid value", apply: { field: "2018-11-13T20:20:39+00:00", otherField: "value2" } },
      {
        description: "revert `field` to previously ratcheted value",
        apply: { field: "dGhpcyBpcyBwYXNzd29yZA==", otherField: "value2" },
        expectError: true,
      },
      {
        description: "revert `field` to its initial value from creation",
        apply: { field: "doesnt abide any format" },
        expectError: true,
      },
    ]));

  const port = (name: string, p: number, field = "value") => ({ name, port: p, field });
  it("Map Type List Reordering Grandfathers Invalid Key", () =>
    runRatchetingCase(s, [
      {
        schema: object({
          field: {
            type: "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name", "port"],
            items: { ...object({ name: stringSchema, port: numberSchema, field: stringSchema }), required: ["name", "port"] },
          },
        }),
      },
      {
        description: "create instance with three soon-to-be-invalid keys",
        apply: { field: [port("nginx", 443), port("etcd", 2379), port("kube-apiserver", 6443)] },
      },
      {
        description: "set `field`'s maxItems to 2, which is exceeded by all of previous object's elements",
        patchSchema: props({ field: { maxItems: 2 } }),
      },
      {
        description: "reorder invalid objects which have too many properties, but do not modify them or change keys",
        apply: { field: [port("kube-apiserver", 6443), port("nginx", 443), port("etcd", 2379)] },
      },
      {
        description: "attempt to change one of the fields of the items which exceed maxItems",
        apply: { field: [port("kube-apiserver", 6443), port("nginx", 443), port("etcd", 2379), port("dev", 8080)] },
        expectError: true,
      },
      {
        description: "Require even numbered port in key, remove maxItems requirement",
        patchSchema: props({ field: { maxItems: null, items: props({ port: { multipleOf: 2 } }) } }),
      },
      {
        description: "reorder fields without changing anything",
        apply: { field: [port("nginx", 443), port("etcd", 2379), port("kube-apiserver", 6443)] },
      },
      {
        description: `use "invalid" keys despite changing order and changing sibling fields to the key`,
        apply: {
          field: [
            port("nginx", 443),
            port("etcd", 2379),
            port("kube-apiserver", 6443, "this is a changed value for an an invalid but grandfathered key"),
            port("dev", 8080),
          ],
        },
      },
    ]));

  it("ArrayItems do not correlate by index", () =>
    runRatchetingCase(s, [
      { schema: object({ values: { type: "array", items: stringMapSchema }, otherField: stringSchema }) },
      {
        description: "create instance with length 5 values",
        apply: {
          values: [
            { name: "1", key: "value" },
            { name: "2", key: "value" },
          ],
        },
      },
      {
        description: "Set minimum length of 6 for values of elements in the items array",
        patchSchema: props({ values: { items: { additionalProperties: { minLength: 6 } } } }),
      },
      {
        description: "change value to one that exceeds minLength",
        apply: {
          values: [
            { name: "1", key: "value" },
            { name: "2", key: "bad" },
          ],
        },
        expectError: true,
      },
      {
        description: "add new fields without touching the map",
        apply: {
          values: [
            { name: "1", key: "value" },
            { name: "2", key: "value" },
          ],
          otherField: "hello world",
        },
      },
      {
        description:
          "add new, valid fields to elements of the array, failing to ratchet unchanged old fields within the array elements by correlating by index due to atomic list",
        apply: {
          values: [
            { name: "1", key: "value" },
            { name: "2", key: "value", key2: "valid value" },
          ],
        },
        expectError: true,
      },
      {
        description: "reorder the array, preventing index correlation",
        apply: {
          values: [
            { name: "2", key: "value", key2: "valid value" },
            { name: "1", key: "value" },
          ],
        },
        expectError: true,
      },
    ]));

  // oldSelf can never be null for a status update.
  it("CEL Optional OldSelf", () =>
    runRatchetingCase(
      s,
      [
        {
          schema: object({
            field: {
              type: "string",
              "x-kubernetes-validations": [{ rule: "!oldSelf.hasValue()", message: "oldSelf must be null", optionalOldSelf: true }],
            },
          }),
        },
        { description: "create instance passes since oldself is null", apply: { field: "value" } },
        { description: "update field fails, since oldself is not null", apply: { field: "value2" }, expectError: true },
        {
          description: "noop update field fails, since oldself is not null and transition rules are not ratcheted",
          apply: { field: "value" },
          expectError: true,
        },
      ],
      true,
    ));

  // Adding a broken status transition rule prevents the object from being updated.
  it("CEL_transition_rules_should_not_ratchet", () =>
    runRatchetingCase(
      s,
      [
        { schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
        {
          description: "create instance with strings that do not start with k8s",
          apply: { myStringField: "myStringValue", myOtherField: "myOtherField" },
        },
        {
          schema: {
            type: "object",
            "x-kubernetes-preserve-unknown-fields": true,
            properties: {
              myStringField: {
                type: "string",
                "x-kubernetes-validations": [{ rule: "oldSelf != 'myStringValue' || self == 'validstring'" }],
              },
            },
          },
        },
        {
          description: "try to change one field to valid value, but unchanged field fails to be ratcheted by transition rule",
          apply: { myOtherField: "myNewOtherField", myStringField: "myStringValue" },
          expectError: true,
        },
        {
          description: "change both fields to valid values",
          apply: { myStringField: "validstring", myOtherField: "myNewOtherField" },
        },
      ],
      true,
    ));

  const fieldObjects = (entries: Record<string, [string, number, number?]>) =>
    Object.fromEntries(
      Object.entries(entries).map(([k, [stringField, intField, otherIntField]]) => [
        k,
        { stringField, intField, ...(otherIntField !== undefined ? { otherIntField } : {}) },
      ]),
    );
  const stringFieldRules = (rules: { rule: string; message: string }[]) =>
    props({ field: { additionalProperties: props({ stringField: { "x-kubernetes-validations": rules } }) } });
  const k8sPrefix = { rule: "self.startsWith('k8s')", message: "strings must have k8s prefix" };
  it("CEL Add Change Rule", () =>
    runRatchetingCase(s, [
      {
        schema: object({
          field: {
            type: "object",
            additionalProperties: object({ stringField: stringSchema, intField: numberSchema, otherIntField: numberSchema }),
          },
        }),
      },
      {
        description: "create instance with strings that do not start with k8s",
        apply: {
          field: fieldObjects({ object1: ["a string", 5], object2: ["another string", 15], object3: ["a third string", 7] }),
        },
      },
      { description: "require that stringField value start with `k8s`", patchSchema: stringFieldRules([k8sPrefix]) },
      {
        description: "add a new entry that follows the new rule, ratchet old values",
        warnings: ['field[object1].stringField: Invalid value: \\"string\\": strings must have k8s prefix'],
        apply: {
          field: fieldObjects({
            object1: ["a string", 5],
            object2: ["another string", 15],
            object3: ["a third string", 7],
            object4: ["k8s third string", 7],
          }),
        },
      },
      {
        description: "modify a sibling to an invalid value, ratcheting the unchanged invalid value",
        apply: { field: fieldObjects({ object1: ["a string", 15], object2: ["another string", 10, 20] }) },
      },
      {
        description: "change a previously ratcheted field to an invalid value",
        apply: { field: { object2: { stringField: "a changed string" }, object3: { stringField: "a changed third string" } } },
        expectError: true,
      },
      {
        // Upstream's patch puts stringField directly under additionalProperties, which is no
        // JSONSchemaProps field: the client drops it when decoding, so the schema is unchanged.
        description: "require that stringField values are also odd length",
        patchSchema: props({ field: { additionalProperties: {} } }),
      },
      {
        description: "have mixed ratcheting of one or two CEL rules, object4 is ratcheted by one rule, object1 is ratcheting 2 rules",
        apply: { field: fieldObjects({ object1: ["a string", 1000], object4: ["k8s third string", 7000] }) },
      },
      {
        description: "swap keys between valuesin the map",
        apply: { field: fieldObjects({ object1: ["k8s third string", 1000], object4: ["a string", 7000] }) },
        expectError: true,
      },
      {
        description: "fix keys",
        apply: { field: fieldObjects({ object1: ["k8s a stringy", 1000], object4: ["k8s third stringy", 7000] }) },
      },
    ]));
});

/**
 * Upstream pkg/apis/flowcontrol/validation/validation_test.go: TestFlowSchemaValidation,
 * TestPriorityLevelConfigurationValidation, TestValidateNonResourceURLPath (a subset of their rows).
 */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/field-error.ts";
import {
  mandatoryFlowSchemas,
  mandatoryPriorityLevelConfigurations,
  suggestedFlowSchemas,
  suggestedPriorityLevelConfigurations,
} from "./bootstrap.ts";
import { setDefaultsFlowSchema, setDefaultsPriorityLevelConfiguration } from "./defaults.ts";
import type { FlowSchema, FlowSchemaSpec, PriorityLevelConfiguration, PriorityLevelConfigurationSpec } from "./types.ts";
import { nonResourceURLPathError, validateFlowSchema, validatePriorityLevelConfiguration } from "./validation.ts";

const messages = (errs: ReturnType<typeof validateFlowSchema>): string[] => errs.map(fieldErrorString);
const flowSchema = (spec: FlowSchemaSpec, name = "system-foo"): FlowSchema => ({ metadata: { name }, spec });
const badRule = { verbs: ["*"], apiGroups: ["*"], resources: ["*"], namespaces: ["*"] };
const userSubject = [{ kind: "User", user: { name: "noxu" } }];

describe("TestFlowSchemaValidation", () => {
  it.each<[string, FlowSchema, string[]]>([
    [
      "missing both resource and non-resource policy-rule",
      flowSchema({ matchingPrecedence: 50, priorityLevelConfiguration: { name: "system-bar" }, rules: [{ subjects: userSubject }] }),
      ["spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty"],
    ],
    [
      "normal flow-schema should work",
      flowSchema({
        matchingPrecedence: 50,
        priorityLevelConfiguration: { name: "system-bar" },
        rules: [{ subjects: userSubject, resourceRules: [badRule] }],
      }),
      [],
    ],
    [
      "malformed Subject union in ServiceAccount case",
      flowSchema({
        matchingPrecedence: 50,
        priorityLevelConfiguration: { name: "system-bar" },
        rules: [
          {
            subjects: [{ kind: "ServiceAccount", user: { name: "fred" }, group: { name: "fred" } }],
            nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["/healthz"] }],
          },
        ],
      }),
      [
        "spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
        "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
        "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
      ],
    ],
    [
      "Subject kind is not supported",
      flowSchema({
        matchingPrecedence: 50,
        priorityLevelConfiguration: { name: "system-bar" },
        rules: [{ subjects: [{ kind: "FooKind" }], nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["/"] }] }],
      }),
      ['spec.rules[0].subjects[0].kind: Unsupported value: "FooKind": supported values: "Group", "ServiceAccount", "User"'],
    ],
    [
      "flow-schema mixes * verbs/apiGroups/resources should fail",
      flowSchema({
        matchingPrecedence: 50,
        priorityLevelConfiguration: { name: "system-bar" },
        rules: [
          {
            subjects: userSubject,
            resourceRules: [{ verbs: ["*", "create"], apiGroups: ["*", "tak"], resources: ["*", "tok"], namespaces: ["*"] }],
          },
        ],
      }),
      [
        'spec.rules[0].resourceRules[0].verbs: Invalid value: []string{\"*\", \"create\"}: if \'*\' is present, must not specify other verbs',
        'spec.rules[0].resourceRules[0].apiGroups: Invalid value: []string{\"*\", \"tak\"}: if \'*\' is present, must not specify other api groups',
        'spec.rules[0].resourceRules[0].resources: Invalid value: []string{\"*\", \"tok\"}: if \'*\' is present, must not specify other resources',
      ],
    ],
    [
      "flow-schema has both resource rules and non-resource rules, and no namespaces",
      flowSchema({
        matchingPrecedence: 50,
        priorityLevelConfiguration: { name: "system-bar" },
        rules: [{ subjects: userSubject, resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"] }] }],
      }),
      [
        "spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace",
      ],
    ],
    [
      "bad namespace",
      flowSchema({
        matchingPrecedence: 50,
        priorityLevelConfiguration: { name: "system-bar" },
        rules: [{ subjects: userSubject, resourceRules: [{ ...badRule, namespaces: ["-foo"] }] }],
      }),
      [
        "spec.rules[0].resourceRules[0].namespaces[0]: Invalid value: \"-foo\": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      "matchingPrecedence 1 outside exempt, and a missing priority level",
      flowSchema({ matchingPrecedence: 1, priorityLevelConfiguration: { name: "" }, rules: [] }),
      [
        "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
        "spec.priorityLevelConfiguration.name: Required value: must reference a priority level",
      ],
    ],
    [
      "matchingPrecedence too large, unknown distinguisher",
      flowSchema({ matchingPrecedence: 10001, distinguisherMethod: { type: "ByFoo" }, priorityLevelConfiguration: { name: "x" } }),
      [
        "spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000",
        'spec.distinguisherMethod.type: Unsupported value: {"type":"ByFoo"}: supported values: "ByNamespace", "ByUser"',
      ],
    ],
    ["exempt flow-schema should work", { ...mandatoryFlowSchemas()[0]! }, []],
    [
      "bad catch-all flow-schema should be noticed",
      flowSchema(
        {
          matchingPrecedence: 10000,
          distinguisherMethod: { type: "ByUser" },
          priorityLevelConfiguration: { name: "catch-all" },
          rules: [{ subjects: userSubject, resourceRules: [{ ...badRule, clusterScope: true }] }],
        },
        "catch-all",
      ),
      [expect.stringMatching(/^spec: Invalid value: .*: spec of 'catch-all' must equal the fixed value$/)],
    ],
  ])("%s", (_name, fs, want) => {
    expect(messages(validateFlowSchema(fs))).toEqual(want);
  });

  it("the bootstrap FlowSchemas validate", () => {
    for (const fs of [...mandatoryFlowSchemas(), ...suggestedFlowSchemas()]) {
      setDefaultsFlowSchema(fs);
      expect(messages(validateFlowSchema(fs)), fs.metadata.name).toEqual([]);
    }
  });
});

const pl = (spec: PriorityLevelConfigurationSpec, name = "system-foo"): PriorityLevelConfiguration => ({ metadata: { name }, spec });
const queuing = (queues: number, handSize: number, queueLengthLimit: number): PriorityLevelConfigurationSpec => ({
  type: "Limited",
  limited: { nominalConcurrencyShares: 100, limitResponse: { type: "Queue", queuing: { queues, handSize, queueLengthLimit } } },
});

describe("TestPriorityLevelConfigurationValidation", () => {
  it.each<[string, PriorityLevelConfiguration, string[]]>([
    ["exempt should work", pl({ type: "Exempt", exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }, "exempt"), []],
    [
      "wrong exempt spec should fail",
      pl({ type: "Exempt", limited: { nominalConcurrencyShares: 1 } }, "exempt"),
      ["spec.limited: Forbidden: must be nil if the type is not Limited"],
    ],
    [
      "limited requires more details",
      pl({ type: "Limited" }, "broken-limited"),
      ["spec.limited: Required value: must not be empty when type is Limited"],
    ],
    [
      "max-in-flight should work",
      pl({ type: "Limited", limited: { nominalConcurrencyShares: 42, limitResponse: { type: "Reject" } } }),
      [],
    ],
    [
      "forbid queuing details when not queuing",
      pl({
        type: "Limited",
        limited: {
          nominalConcurrencyShares: 100,
          limitResponse: { type: "Reject", queuing: { queues: 512, handSize: 4, queueLengthLimit: 100 } },
        },
      }),
      ["spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited"],
    ],
    [
      "wrong backstop spec should fail",
      pl({ type: "Limited", limited: { nominalConcurrencyShares: 42, limitResponse: { type: "Reject" } } }, "catch-all"),
      [expect.stringMatching(/^spec: Invalid value: .*: spec of 'catch-all' must equal the fixed value$/)],
    ],
    ["normal customized priority level should work", pl(queuing(512, 4, 100)), []],
    [
      "customized priority level w/ overflowing handSize/queues should fail 1",
      pl(queuing(512, 8, 100)),
      [
        "spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60",
      ],
    ],
    [
      "customized priority level w/ handSize greater than queues should fail",
      pl(queuing(7, 8, 100)),
      ["spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (7)"],
    ],
    [
      "the type must be Exempt iff the name is exempt",
      pl({ type: "Exempt" }, "fancy"),
      ["spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'"],
    ],
    [
      "negative shares, lendablePercent out of range, negative borrowingLimitPercent",
      pl({
        type: "Limited",
        limited: { nominalConcurrencyShares: -1, lendablePercent: 101, borrowingLimitPercent: -1, limitResponse: { type: "Reject" } },
      }),
      [
        "spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer",
        "spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive",
        "spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer",
      ],
    ],
  ])("%s", (_name, obj, want) => {
    expect(messages(validatePriorityLevelConfiguration(obj))).toEqual(want);
  });

  it("the bootstrap priority levels validate", () => {
    for (const p of [...mandatoryPriorityLevelConfigurations(), ...suggestedPriorityLevelConfigurations()]) {
      setDefaultsPriorityLevelConfiguration(p);
      expect(messages(validatePriorityLevelConfiguration(p)), p.metadata.name).toEqual([]);
    }
  });
});

describe("TestValidateNonResourceURLPath", () => {
  it.each<[string, string | undefined]>([
    ["", "must not be empty"],
    ["/", undefined],
    ["/apis", undefined],
    ["/apis/*", undefined],
    ["apis", "must start with slash"],
    ["/ap is", "must not contain white-space"],
    ["//apis", "must not contain double slash"],
    ["/apis*", "wildcard can only do suffix matching"],
    ["/*/apis", "wildcard can only do suffix matching"],
  ])("%j", (p, want) => {
    expect(nonResourceURLPathError(p)).toBe(want);
  });
});

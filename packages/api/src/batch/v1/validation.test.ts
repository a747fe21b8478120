/** Upstream pkg/apis/batch/validation/validation_test.go: TestValidateJob, TestValidateJobUpdate, TestValidateJobUpdateStatus. */
import { describe, expect, it } from "vitest";
import { fieldErrorString } from "../../errors/field-error.ts";
import { setDefaultsJob } from "./defaults.ts";
import { validateJobUpdateStatus } from "./status-validation.ts";
import type { Job, JobSpec } from "./types.ts";
import { validateJob, validateJobUpdate } from "./validation.ts";

const uid = "1a2b3c";
const messages = (errs: ReturnType<typeof validateJob>): string[] => errs.map(fieldErrorString);
const generatedLabels = {
  "controller-uid": uid,
  "job-name": "myjob",
  "batch.kubernetes.io/controller-uid": uid,
  "batch.kubernetes.io/job-name": "myjob",
};

function job(spec: Partial<JobSpec> = {}, templateExtra: Record<string, unknown> = {}): Job {
  return setDefaultsJob({
    metadata: { name: "myjob", namespace: "default", uid, resourceVersion: "1" },
    spec: {
      selector: { matchLabels: { "batch.kubernetes.io/controller-uid": uid } },
      template: {
        metadata: { labels: { ...generatedLabels } },
        spec: { restartPolicy: "OnFailure", containers: [{ name: "abc", image: "image" }], ...templateExtra },
      },
      ...spec,
    },
  });
}

describe("setDefaultsJob (TestSetDefaultJob)", () => {
  it("defaults completions, parallelism, backoffLimit, completionMode, suspend, podReplacementPolicy and manualSelector", () => {
    const j = setDefaultsJob({ metadata: {}, spec: { template: { metadata: { labels: { a: "b" } }, spec: { containers: [] } } } });
    expect(j.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: "NonIndexed",
      suspend: false,
      podReplacementPolicy: "TerminatingOrFailed",
      manualSelector: false,
    });
    expect(j.metadata.labels).toEqual({ a: "b" });
  });
  it("keeps completions unset when parallelism is set; backoffLimit MaxInt32 with backoffLimitPerIndex; Failed with a podFailurePolicy", () => {
    const j = setDefaultsJob({
      metadata: {},
      spec: {
        parallelism: 2,
        backoffLimitPerIndex: 1,
        podFailurePolicy: { rules: [] },
        template: { metadata: {}, spec: { containers: [] } },
      },
    });
    expect(j.spec.completions).toBeUndefined();
    expect(j.spec.backoffLimit).toBe(2147483647);
    expect(j.spec.podReplacementPolicy).toBe("Failed");
  });
});

describe("validateJob (TestValidateJob)", () => {
  it("accepts a Job with the generated selector and labels", () => {
    expect(messages(validateJob(job()))).toEqual([]);
  });

  it.each<[string, Job, string[]]>([
    [
      "spec.parallelism: must be greater than or equal to 0",
      job({ parallelism: -1 }),
      ["spec.parallelism: Invalid value: -1: must be greater than or equal to 0"],
    ],
    [
      "spec.backoffLimit and activeDeadlineSeconds negative",
      job({ backoffLimit: -1, activeDeadlineSeconds: -1 }),
      [
        "spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0",
        "spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0",
      ],
    ],
    [
      "spec.template.spec.restartPolicy: Required value",
      job({}, { restartPolicy: "Always" }),
      ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ],
    [
      "spec.template.spec.restartPolicy: Unsupported value",
      job({}, { restartPolicy: "Sometimes" }),
      ['spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"'],
    ],
    [
      "spec.completions: Required value: when completion mode is Indexed",
      { ...job(), spec: { ...job().spec, completionMode: "Indexed", completions: undefined } },
      ["spec.completions: Required value: when completion mode is Indexed"],
    ],
    [
      "spec.completionMode: Unsupported value",
      job({ completionMode: "Sometimes" }),
      ['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"'],
    ],
    [
      "spec.backoffLimitPerIndex: requires indexed completion mode",
      job({ backoffLimitPerIndex: 1 }),
      ["spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode"],
    ],
    [
      "spec.podReplacementPolicy: Unsupported value",
      job({ podReplacementPolicy: "Unknown" }),
      ['spec.podReplacementPolicy: Unsupported value: "Unknown": supported values: "Failed", "TerminatingOrFailed"'],
    ],
    [
      "metadata.name: will not able to create pod with invalid DNS label",
      {
        ...job({ completionMode: "Indexed", completions: 2, parallelism: 2 }),
        metadata: { name: "a".repeat(62), namespace: "default", uid },
      },
      [
        `spec.template.metadata.labels[job-name]: Invalid value: map[string]string{"batch.kubernetes.io/controller-uid":"1a2b3c", "batch.kubernetes.io/job-name":"myjob", "controller-uid":"1a2b3c", "job-name":"myjob"}: must be '${"a".repeat(62)}'`,
        `spec.template.metadata.labels[batch.kubernetes.io/job-name]: Invalid value: map[string]string{"batch.kubernetes.io/controller-uid":"1a2b3c", "batch.kubernetes.io/job-name":"myjob", "controller-uid":"1a2b3c", "job-name":"myjob"}: must be '${"a".repeat(62)}'`,
        `metadata.name: Invalid value: "${"a".repeat(62)}": will not able to create pod with invalid DNS label: ${"a".repeat(62)}-1`,
      ],
    ],
    [
      "spec.template.metadata.labels: `selector` does not match template `labels`",
      job({ manualSelector: true, selector: { matchLabels: { a: "b" } } }),
      [
        'spec.template.metadata.labels: Invalid value: map[string]string{"batch.kubernetes.io/controller-uid":"1a2b3c", "batch.kubernetes.io/job-name":"myjob", "controller-uid":"1a2b3c", "job-name":"myjob"}: `selector` does not match template `labels`',
      ],
    ],
    [
      "generated labels missing",
      { ...job(), spec: { ...job().spec, template: { metadata: {}, spec: job().spec.template.spec } } },
      [
        "spec.template.metadata.labels[controller-uid]: Required value: 1a2b3c",
        "spec.template.metadata.labels[job-name]: Required value: myjob",
        "spec.template.metadata.labels[batch.kubernetes.io/controller-uid]: Required value: 1a2b3c",
        "spec.template.metadata.labels[batch.kubernetes.io/job-name]: Required value: myjob",
        "spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`",
      ],
    ],
  ])("%s", (_name, j, want) => {
    expect(messages(validateJob(j))).toEqual(want);
  });
});

describe("validateJobUpdate (TestValidateJobUpdate)", () => {
  it("keeps the selector, completions and template immutable, and allows parallelism", () => {
    const old = job();
    const scaled = job({ completions: 1, parallelism: 3 });
    expect(messages(validateJobUpdate(scaled, old, { requirePrefixedLabels: true }))).toEqual([]);
    const changed = job({ completions: 5 }, { activeDeadlineSeconds: 5 });
    const errs = messages(validateJobUpdate(changed, old, { requirePrefixedLabels: true }));
    expect(errs[0]).toBe("spec.completions: Invalid value: 5: field is immutable");
    expect(errs[1]).toMatch(/^spec\.template: Invalid value: .*: field is immutable$/);
  });
});

describe("validateJobUpdateStatus (TestValidateJobUpdateStatus)", () => {
  const start = "2026-01-01T00:00:00Z";
  it.each<[string, Job["status"], Job["status"], string[]]>([
    ["counters may grow", { active: 1 }, { active: 0, succeeded: 1 }, []],
    ["failed may not decrease", { failed: 2 }, { failed: 1 }, ["status.failed: Invalid value: 1: cannot decrease the failed counter"]],
    [
      "Complete needs SuccessCriteriaMet, completionTime and startTime",
      {},
      { conditions: [{ type: "Complete", status: "True" }] },
      [
        "status.completionTime: Required value: completionTime is required for Complete jobs",
        "status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition",
        "status.startTime: Required value: startTime is required for finished job",
      ],
    ],
    [
      "Failed needs FailureTarget",
      { startTime: start },
      { startTime: start, conditions: [{ type: "Failed", status: "True" }] },
      ["status.conditions: Invalid value: cannot set Failed=True condition without the FailureTarget=true condition"],
    ],
    [
      "the terminal condition stays",
      {
        startTime: start,
        conditions: [
          { type: "FailureTarget", status: "True" },
          { type: "Failed", status: "True" },
        ],
      },
      { startTime: start, conditions: [{ type: "FailureTarget", status: "True" }] },
      ["status.conditions: Invalid value: cannot disable the terminal Failed=True condition"],
    ],
    [
      "uncounted UIDs unique and not empty",
      {},
      { uncountedTerminatedPods: { succeeded: ["a", ""], failed: ["a"] } },
      [
        'status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty',
        'status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"',
      ],
    ],
  ])("%s", (_name, oldStatus, newStatus, want) => {
    const old = { ...job(), status: oldStatus };
    const now = { ...job(), status: newStatus };
    expect(messages(validateJobUpdateStatus(now, old))).toEqual(want);
  });
});

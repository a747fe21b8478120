/**
 * The table of upstream's testWebhookReinvocationPolicy
 * (test/integration/apiserver/admissionwebhook/reinvocation_test.go), row for row with its index,
 * for `reinvocation.integration.test.ts`.
 */

/** mutationAnnotationValue */
export const mutationAnnotationValue = (configuration: string, webhook: string, mutated: boolean) =>
  `{"configuration":"${configuration}","webhook":"${webhook}","mutated":${mutated}}`;
/** patchAnnotationValue: upstream's text with its spaces taken out. */
export const patchAnnotationValue = (configuration: string, webhook: string, patch: string) =>
  `{"configuration": "${configuration}", "webhook": "${webhook}", "patch": ${patch}, "patchType": "JSONPatch"}`.replaceAll(" ", "");

export interface TestWebhook {
  path: string;
  policy?: "Never" | "IfNeeded";
  objectSelector?: Record<string, unknown>;
}

export interface Row {
  /** The row's index in upstream's table: its namespaces and configuration are named after it. */
  index: number;
  name: string;
  initialPriorityClass?: string;
  webhooks: TestWebhook[];
  expectLabels?: Record<string, string>;
  expectInvocations: Record<string, number>;
  /** The create fails with a message containing this (upstream's expectError, errorContains). */
  errorContains?: string;
  expectAuditMutationAnnotations?: Record<string, string>;
  expectAuditPatchAnnotations?: Record<string, string>;
}

/** The configuration of row `i`. */
export const cfg = (i: number) => `admission.integration.test-${i}`;
export const rows: Row[] = [
  {
    index: 0,
    name: "no reinvocation for in-tree only mutation",
    initialPriorityClass: "low-priority",
    webhooks: [{ path: "/noop", policy: "IfNeeded" }],
    expectInvocations: { "/noop": 1 },
    expectAuditMutationAnnotations: {
      "mutation.webhook.admission.k8s.io/round_0_index_0": mutationAnnotationValue(cfg(0), "admission.integration.test.0.noop", false),
    },
  },
  {
    index: 1,
    name: "no webhook reinvocation for webhook when no in-tree reinvocation mutations",
    initialPriorityClass: "low-priority",
    webhooks: [{ path: "/addlabel", policy: "IfNeeded" }],
    expectInvocations: { "/addlabel": 1 },
    expectAuditPatchAnnotations: {
      "patch.webhook.admission.k8s.io/round_0_index_0": patchAnnotationValue(
        cfg(1),
        "admission.integration.test.0.addlabel",
        `[{"op": "add", "path": "/metadata/labels/a", "value": "true"}]`,
      ),
    },
    expectAuditMutationAnnotations: {
      "mutation.webhook.admission.k8s.io/round_0_index_0": mutationAnnotationValue(cfg(1), "admission.integration.test.0.addlabel", true),
    },
  },
  {
    index: 2,
    name: "webhook is reinvoked after in-tree reinvocation",
    initialPriorityClass: "low-priority",
    // Priority plugin is ordered to run before mutating webhooks
    webhooks: [{ path: "/setpriority", policy: "IfNeeded" }],
    expectInvocations: { "/setpriority": 2 },
    expectAuditPatchAnnotations: {
      "patch.webhook.admission.k8s.io/round_0_index_0": patchAnnotationValue(
        cfg(2),
        "admission.integration.test.0.setpriority",
        `[{"op": "add", "path": "/spec/priorityClassName", "value": "high-priority"},{"op": "remove", "path": "/spec/priority"}]`,
      ),
    },
    expectAuditMutationAnnotations: {
      "mutation.webhook.admission.k8s.io/round_0_index_0": mutationAnnotationValue(
        cfg(2),
        "admission.integration.test.0.setpriority",
        true,
      ),
      "mutation.webhook.admission.k8s.io/round_1_index_0": mutationAnnotationValue(
        cfg(2),
        "admission.integration.test.0.setpriority",
        false,
      ),
    },
  },
  {
    index: 3,
    name: "no reinvocation of webhook B when in-tree or prior webhook mutations",
    initialPriorityClass: "low-priority",
    webhooks: [
      { path: "/addlabel", policy: "IfNeeded" },
      { path: "/conditionaladdlabel", policy: "IfNeeded" },
    ],
    expectLabels: { x: "true", a: "true", b: "true" },
    expectInvocations: { "/addlabel": 2, "/conditionaladdlabel": 1 },
    expectAuditPatchAnnotations: {
      "patch.webhook.admission.k8s.io/round_0_index_0": patchAnnotationValue(
        cfg(3),
        "admission.integration.test.0.addlabel",
        `[{"op": "add", "path": "/metadata/labels/a", "value": "true"}]`,
      ),
      "patch.webhook.admission.k8s.io/round_0_index_1": patchAnnotationValue(
        cfg(3),
        "admission.integration.test.1.conditionaladdlabel",
        `[{"op": "add", "path": "/metadata/labels/b", "value": "true"}]`,
      ),
    },
    expectAuditMutationAnnotations: {
      "mutation.webhook.admission.k8s.io/round_0_index_0": mutationAnnotationValue(cfg(3), "admission.integration.test.0.addlabel", true),
      "mutation.webhook.admission.k8s.io/round_0_index_1": mutationAnnotationValue(
        cfg(3),
        "admission.integration.test.1.conditionaladdlabel",
        true,
      ),
      "mutation.webhook.admission.k8s.io/round_1_index_0": mutationAnnotationValue(cfg(3), "admission.integration.test.0.addlabel", false),
    },
  },
  {
    index: 4,
    name: "all webhooks reinvoked when any webhook reinvocation causes mutation",
    initialPriorityClass: "low-priority",
    webhooks: [
      { path: "/settrue", policy: "IfNeeded" },
      { path: "/setfalse", policy: "IfNeeded" },
    ],
    expectLabels: { x: "true", fight: "false" },
    expectInvocations: { "/settrue": 2, "/setfalse": 2 },
    expectAuditPatchAnnotations: Object.fromEntries(
      [0, 1].flatMap((round) => [
        [
          `patch.webhook.admission.k8s.io/round_${round}_index_0`,
          patchAnnotationValue(
            cfg(4),
            "admission.integration.test.0.settrue",
            `[{"op": "replace", "path": "/metadata/labels/fight", "value": "true"}]`,
          ),
        ],
        [
          `patch.webhook.admission.k8s.io/round_${round}_index_1`,
          patchAnnotationValue(
            cfg(4),
            "admission.integration.test.1.setfalse",
            `[{"op": "replace", "path": "/metadata/labels/fight", "value": "false"}]`,
          ),
        ],
      ]),
    ),
    expectAuditMutationAnnotations: Object.fromEntries(
      [0, 1].flatMap((round) => [
        [
          `mutation.webhook.admission.k8s.io/round_${round}_index_0`,
          mutationAnnotationValue(cfg(4), "admission.integration.test.0.settrue", true),
        ],
        [
          `mutation.webhook.admission.k8s.io/round_${round}_index_1`,
          mutationAnnotationValue(cfg(4), "admission.integration.test.1.setfalse", true),
        ],
      ]),
    ),
  },
  {
    index: 5,
    name: "no reinvocation of webhook B when in-tree or prior webhook mutations (objectSelector)",
    initialPriorityClass: "low-priority",
    webhooks: [
      { path: "/conditionaladdlabel", policy: "IfNeeded", objectSelector: { matchLabels: { a: "true" } } },
      { path: "/addlabel", policy: "IfNeeded" },
    ],
    expectLabels: { x: "true", a: "true" },
    expectInvocations: { "/addlabel": 1, "/conditionaladdlabel": 0 },
    expectAuditPatchAnnotations: {
      "patch.webhook.admission.k8s.io/round_0_index_1": patchAnnotationValue(
        cfg(5),
        "admission.integration.test.1.addlabel",
        `[{"op": "add", "path": "/metadata/labels/a", "value": "true"}]`,
      ),
    },
    expectAuditMutationAnnotations: {
      "mutation.webhook.admission.k8s.io/round_0_index_1": mutationAnnotationValue(cfg(5), "admission.integration.test.1.addlabel", true),
    },
  },
  {
    index: 6,
    name: "invalid priority class set by webhook should result in error from in-tree priority plugin",
    // Priority plugin is ordered to run before mutating webhooks
    webhooks: [{ path: "/setinvalidpriority", policy: "IfNeeded" }],
    errorContains: "no PriorityClass with name invalid was found",
    expectInvocations: { "/setinvalidpriority": 1 },
  },
  ...(["Never", undefined] as const).map((policy, k): Row => ({
    index: 7 + k,
    name: policy ? "'reinvoke never' policy respected" : "'reinvoke never' (by default) policy respected",
    webhooks: [
      { path: "/conditionaladdlabel", ...(policy ? { policy } : {}) },
      { path: "/addlabel", ...(policy ? { policy } : {}) },
    ],
    expectLabels: { x: "true", a: "true" },
    expectInvocations: { "/conditionaladdlabel": 1, "/addlabel": 1 },
    expectAuditPatchAnnotations: {
      "patch.webhook.admission.k8s.io/round_0_index_1": patchAnnotationValue(
        cfg(7 + k),
        "admission.integration.test.1.addlabel",
        `[{"op": "add", "path": "/metadata/labels/a", "value": "true"}]`,
      ),
    },
    expectAuditMutationAnnotations: {
      "mutation.webhook.admission.k8s.io/round_0_index_0": mutationAnnotationValue(
        cfg(7 + k),
        "admission.integration.test.0.conditionaladdlabel",
        false,
      ),
      "mutation.webhook.admission.k8s.io/round_0_index_1": mutationAnnotationValue(
        cfg(7 + k),
        "admission.integration.test.1.addlabel",
        true,
      ),
    },
  })),
];

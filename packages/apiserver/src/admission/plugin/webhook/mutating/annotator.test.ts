import { describe, expect, it } from "vitest";
import type { AuditLevel } from "../../../../apis/audit/v1/types.ts";
import { annotationsAtLevel } from "../../../audit-annotations.ts";
import { newAdmissionContext } from "../../../interfaces.ts";
import { WebhookAnnotator } from "./annotator.ts";

// dispatcher_test.go / reinvocation_test.go: the values upstream's webhookAnnotator writes.
describe("webhookAnnotator", () => {
  it("addMutationAnnotation: MutationAuditAnnotation's fields in order, at level Metadata", () => {
    const ctx = newAdmissionContext();
    new WebhookAnnotator(ctx, 1, 2, "admission.integration.test.0.addlabel", "admission.integration.test-3").addMutationAnnotation(false);
    expect(ctx.auditAnnotations).toEqual({
      "mutation.webhook.admission.k8s.io/round_1_index_2":
        '{"configuration":"admission.integration.test-3","webhook":"admission.integration.test.0.addlabel","mutated":false}',
    });
    expect(ctx.auditAnnotationLevels ?? {}).toEqual({});
  });

  it.each<[string, unknown[], string]>([
    [
      "an operation's members come out sorted, as json.Marshal writes map[string]*json.RawMessage",
      [{ value: "true", path: "/metadata/labels/a", op: "add" }],
      '[{"op":"add","path":"/metadata/labels/a","value":"true"}]',
    ],
    ["from sorts before op", [{ op: "move", path: "/b", from: "/a" }], '[{"from":"/a","op":"move","path":"/b"}]'],
    [
      "two operations, values of every kind",
      [
        { op: "add", path: "/spec/priorityClassName", value: "high-priority" },
        { op: "add", path: "/x", value: { n: 1, b: true, l: [null] } },
      ],
      '[{"op":"add","path":"/spec/priorityClassName","value":"high-priority"},{"op":"add","path":"/x","value":{"n":1,"b":true,"l":[null]}}]',
    ],
    [
      "HTML characters are escaped as encoding/json does",
      [{ op: "add", path: "/metadata/annotations/x", value: "<a&b>\u2028" }],
      '[{"op":"add","path":"/metadata/annotations/x","value":"\\u003ca\\u0026b\\u003e\\u2028"}]',
    ],
  ])("addPatchAnnotation: %s", (_name, ops, patch) => {
    const ctx = newAdmissionContext();
    new WebhookAnnotator(ctx, 0, 1, "w.example.com", "config").addPatchAnnotation(ops);
    const key = "patch.webhook.admission.k8s.io/round_0_index_1";
    expect(ctx.auditAnnotations).toEqual({
      [key]: `{"configuration":"config","webhook":"w.example.com","patch":${patch},"patchType":"JSONPatch"}`,
    });
    expect(ctx.auditAnnotationLevels).toEqual({ [key]: "Request" });
  });

  it("addFailedOpenAnnotation: the webhook's name", () => {
    const ctx = newAdmissionContext();
    new WebhookAnnotator(ctx, 0, 3, "broken.example.com", "config").addFailedOpenAnnotation();
    expect(ctx.auditAnnotations).toEqual({ "failed-open.mutation.webhook.admission.k8s.io/round_0_index_3": "broken.example.com" });
  });
});

describe("annotationsAtLevel (attributes.go getAnnotations)", () => {
  const ctx = newAdmissionContext();
  const annotator = new WebhookAnnotator(ctx, 0, 0, "w", "c");
  annotator.addMutationAnnotation(true);
  annotator.addPatchAnnotation([{ op: "add", path: "/a", value: 1 }]);
  it.each<[AuditLevel, string[]]>([
    ["Metadata", ["mutation.webhook.admission.k8s.io/round_0_index_0"]],
    ["Request", ["mutation.webhook.admission.k8s.io/round_0_index_0", "patch.webhook.admission.k8s.io/round_0_index_0"]],
    ["RequestResponse", ["mutation.webhook.admission.k8s.io/round_0_index_0", "patch.webhook.admission.k8s.io/round_0_index_0"]],
  ])("an event at level %s keeps %j", (level, keys) => {
    expect(Object.keys(annotationsAtLevel(ctx.auditAnnotations, ctx.auditAnnotationLevels, level)).sort()).toEqual(keys);
  });
});

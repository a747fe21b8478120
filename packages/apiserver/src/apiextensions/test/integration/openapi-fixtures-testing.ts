/** The CronTab CRD of the OpenAPI integration tests: two versions, subresources, documented fields. */

const spec = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: "object",
  description: "CronTabSpec is the desired state of a CronTab.",
  required: ["cronSpec"],
  properties: {
    cronSpec: {
      type: "string",
      description: "The cron schedule, in Cron format.",
      pattern: "^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$",
    },
    image: { type: "string", description: "The image to run." },
    replicas: { type: "integer", format: "int32", minimum: 1, maximum: 10, description: "How many copies to run." },
    port: { "x-kubernetes-int-or-string": true, description: "The port, a number or a name." },
    note: { type: "string", nullable: true },
    ...extra,
  },
});

const schema = (specExtra?: Record<string, unknown>): Record<string, unknown> => ({
  openAPIV3Schema: {
    type: "object",
    description: "CronTab runs a container on a schedule.",
    properties: {
      spec: spec(specExtra),
      status: { type: "object", properties: { replicas: { type: "integer" }, selector: { type: "string" } } },
    },
  },
});

/** `crontabs.stable.example.com`: v1 (storage) and v1beta1, status and scale subresources on v1. */
export function cronTabCRD(opts: { v1beta1Served?: boolean; specExtra?: Record<string, unknown> } = {}): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "crontabs.stable.example.com" },
    spec: {
      group: "stable.example.com",
      names: { plural: "crontabs", singular: "crontab", kind: "CronTab", shortNames: ["ct"] },
      scope: "Namespaced",
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: schema(opts.specExtra),
          subresources: {
            status: {},
            scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" },
          },
        },
        {
          name: "v1beta1",
          served: opts.v1beta1Served ?? true,
          storage: false,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: { spec: { type: "object", properties: { cronSpec: { type: "string", description: "The v1beta1 schedule." } } } },
            },
          },
        },
      ],
    },
  };
}

/**
 * Test helper: upstream's `makeValidService()` from validation_test.go, a
 * Service that passes ValidateService untouched. Not exported from the index.
 */
import type { Service } from "../service.ts";

export function makeValidService(): Service {
  return {
    metadata: { name: "valid", namespace: "valid", labels: {}, annotations: {}, resourceVersion: "1" },
    spec: {
      selector: { key: "val" },
      sessionAffinity: "None",
      type: "ClusterIP",
      ports: [{ name: "p", protocol: "TCP", port: 8675, targetPort: 8675 }],
      internalTrafficPolicy: "Cluster",
    },
  };
}

/** pruning_test.go's pruningFixture: `foos.tests.example.com`, cluster-scoped, with the status subresource. */
import { parse as parseYAML } from "yaml";

/** pruningFixture with `schema` (YAML, as upstream's constants) as the v1beta1 schema. */
export function pruningFixture(schema: string): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "foos.tests.example.com" },
    spec: {
      group: "tests.example.com",
      scope: "Cluster",
      versions: [
        {
          name: "v1beta1",
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: { openAPIV3Schema: parseYAML(schema) as unknown },
        },
      ],
      names: { plural: "foos", singular: "foo", kind: "Foo", listKind: "FooList" },
    },
  };
}

/** pruningFooInstance. */
export const pruningFooInstance = `
kind: Foo
apiVersion: tests.example.com/v1beta1
metadata:
  name: foo
`;

export const foos = "/apis/tests.example.com/v1beta1/foos";

/** unstructured.NestedFieldNoCopy's found. */
export function found(o: unknown, path: string[]): boolean {
  let x = o;
  for (const k of path) {
    if (x === null || typeof x !== "object" || Array.isArray(x) || !Object.hasOwn(x, k)) return false;
    x = (x as Record<string, unknown>)[k];
  }
  return true;
}

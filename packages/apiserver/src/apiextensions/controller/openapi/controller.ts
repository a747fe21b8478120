/**
 * The OpenAPI controllers of the apiextensions-apiserver (pkg/controller/openapi/controller.go
 * for v2, pkg/controller/openapiv3/controller.go for v3): every served version of every
 * Established CRD in the informer's cache contributes its spec, and the documents follow the CRDs
 * as they are created, updated, deleted or stop being served.
 */
import { isCRDConditionTrue, type CustomResourceDefinition } from "@servicenet/api/apiextensions/v1";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { OpenAPISpecSource } from "../../../server/openapi/index.ts";
import type { KubeObject } from "../../../storage/index.ts";
import type { Lister } from "../../../util/informer/store-informer.ts";
import { buildCRDOpenAPI, type CRDOpenAPISpec } from "./builder/builder.ts";

function established(informer: Pick<Lister<KubeObject>, "list">): CustomResourceDefinition[] {
  return (informer.list() as unknown as CustomResourceDefinition[])
    .filter((c) => isCRDConditionTrue(c, "Established"))
    .sort((a, b) => ((a.metadata.name ?? "") < (b.metadata.name ?? "") ? -1 : 1));
}

const key = (c: CustomResourceDefinition): string => `${c.metadata.name ?? ""}@${c.metadata.resourceVersion ?? ""}`;

/**
 * The CRDs' OpenAPI specs from the CRD informer. A CRD's specs are built once per resourceVersion
 * and flavor (upstream's controllers keep them per CRD too), so one CRD changing rebuilds only its own.
 */
export function crdOpenAPISource(informer: Pick<Lister<KubeObject>, "list">, logger: Logger = noopLogger): OpenAPISpecSource {
  const cache = new Map<boolean, Map<string, CRDOpenAPISpec[]>>([
    [true, new Map()],
    [false, new Map()],
  ]);
  const build = (crd: CustomResourceDefinition, v2: boolean): CRDOpenAPISpec[] => {
    const specs: CRDOpenAPISpec[] = [];
    for (const v of crd.spec.versions) {
      if (!v.served) continue;
      try {
        specs.push(buildCRDOpenAPI(crd, v.name, { v2 }));
      } catch (e) {
        // As upstream: a version whose spec cannot be built is left out, the others are served.
        logger.error("failed to build OpenAPI spec", { crd: crd.metadata.name, version: v.name, v2, err: e });
      }
    }
    return specs;
  };
  return {
    revision: () => established(informer).map(key).join(","),
    specs(v2) {
      const byKey = cache.get(v2)!;
      const crds = established(informer);
      const live = new Set(crds.map(key));
      for (const k of byKey.keys()) if (!live.has(k)) byKey.delete(k);
      return crds.flatMap((crd) => {
        const k = key(crd);
        let specs = byKey.get(k);
        if (specs === undefined) byKey.set(k, (specs = build(crd, v2)));
        return specs;
      });
    },
  };
}

/**
 * The OpenAPI controllers of the apiextensions-apiserver (pkg/controller/openapi/controller.go
 * for v2, pkg/controller/openapiv3/controller.go for v3): every served version of every
 * Established CRD in the informer's cache contributes its spec, and the documents follow the CRDs
 * as they are created, updated, deleted or stop being served.
 */
import { isCRDConditionTrue, type CustomResourceDefinition } from "@servicenet/api/apiextensions/v1";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { OpenAPISpecSource } from "../../../server/openapi/index.ts";
import type { StoreInformer } from "../../../util/informer/store-informer.ts";
import { buildCRDOpenAPI, type CRDOpenAPISpec } from "./builder/builder.ts";

function established(informer: StoreInformer): CustomResourceDefinition[] {
  return (informer.list() as unknown as CustomResourceDefinition[])
    .filter((c) => isCRDConditionTrue(c, "Established"))
    .sort((a, b) => ((a.metadata.name ?? "") < (b.metadata.name ?? "") ? -1 : 1));
}

/** The CRDs' OpenAPI specs from the CRD informer, rebuilt only when a CRD changed. */
export function crdOpenAPISource(informer: StoreInformer, logger: Logger = noopLogger): OpenAPISpecSource {
  const cache = new Map<boolean, { revision: string; specs: CRDOpenAPISpec[] }>();
  const revision = (crds: CustomResourceDefinition[]): string =>
    crds.map((c) => `${c.metadata.name ?? ""}@${c.metadata.resourceVersion ?? ""}`).join(",");
  return {
    revision: () => revision(established(informer)),
    specs(v2) {
      const crds = established(informer);
      const rev = revision(crds);
      const hit = cache.get(v2);
      if (hit?.revision === rev) return hit.specs;
      const specs: CRDOpenAPISpec[] = [];
      for (const crd of crds) {
        for (const v of crd.spec.versions) {
          if (!v.served) continue;
          try {
            specs.push(buildCRDOpenAPI(crd, v.name, { v2 }));
          } catch (e) {
            // As upstream: a CRD whose spec cannot be built is left out, the others are served.
            logger.error("failed to build OpenAPI spec", { crd: crd.metadata.name, version: v.name, v2, err: e });
          }
        }
      }
      cache.set(v2, { revision: rev, specs });
      return specs;
    },
  };
}

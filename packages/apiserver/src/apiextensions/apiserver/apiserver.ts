/**
 * The apiextensions-apiserver inside this apiserver (apiextensions-apiserver pkg/apiserver/
 * apiserver.go New/Complete): the CRD informer, the naming, establishing and API approval controllers and the
 * custom-resource handler the server delegates unmatched resource paths to.
 */
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { GenericStore } from "../../registry/generic/store.ts";
import { nowRFC3339 } from "../../registry/generic/names.ts";
import type { Store } from "../../storage/index.ts";
import { StoreInformer } from "../../util/informer/store-informer.ts";
import type { ResourceDef } from "../../server/resources.ts";
import type { CRDObject } from "../registry/customresourcedefinition/strategy.ts";
import { EstablishingController } from "../controller/establish/establishing-controller.ts";
import { CRDFinalizer } from "../controller/finalizer/crd-finalizer.ts";
import { NamingConditionController } from "../controller/status/naming-controller.ts";
import { APIApprovalController } from "../controller/apiapproval/apiapproval-controller.ts";
import { crdOpenAPISource } from "../controller/openapi/controller.ts";
import type { OpenAPISpecSource } from "../../server/openapi/index.ts";
import { CRDHandler } from "./customresource-handler.ts";
import { newCRConverterFactory } from "./conversion/converter.ts";
import type { WebhookConverterOptions } from "./conversion/webhook-converter.ts";

/** Where CRDs are stored (upstream's `/registry/apiextensions.k8s.io/customresourcedefinitions/`). */
export const crdStoragePath = "apiextensions.k8s.io/customresourcedefinitions";

export interface CustomResourceServerConfig {
  store: Store;
  /** The CRD REST store (status writes of the controllers go through it). */
  crdStore: GenericStore;
  newStore(def: ResourceDef): GenericStore;
  /** How conversion webhooks are reached (the service resolver and the loopback's credentials). */
  conversion?: WebhookConverterOptions;
  logger?: Logger;
}

export interface CustomResourceServer {
  handler: CRDHandler;
  /** The OpenAPI v2 and v3 specs of the served custom resources. */
  openapi: OpenAPISpecSource;
  /** Resolves once the CRD cache has synced. */
  synced: Promise<void>;
  stop(): void;
}

/** Starts the CRD informer and controllers; stop() ends them. */
export function startCustomResourceServer(cfg: CustomResourceServerConfig): CustomResourceServer {
  const logger = cfg.logger ?? noopLogger;
  const informer = new StoreInformer<CRDObject>(cfg.store, crdStoragePath, { logger });
  const establishing = new EstablishingController(informer, cfg.crdStore, nowRFC3339, logger);
  const naming = new NamingConditionController(informer, cfg.crdStore, nowRFC3339, logger);
  const apiApproval = new APIApprovalController(informer, cfg.crdStore, nowRFC3339, logger);
  const handler = new CRDHandler({
    informer,
    newStore: (d) => cfg.newStore(d),
    establishing,
    converters: newCRConverterFactory(cfg.conversion ?? {}),
  });
  const finalizer = new CRDFinalizer({
    informer,
    crdStore: cfg.crdStore,
    instancesStore: (crd) => handler.instancesStore(crd),
    now: nowRFC3339,
    logger,
  });
  informer.start();
  void naming.run();
  void apiApproval.run();
  void establishing.run();
  void finalizer.run();
  return {
    handler,
    openapi: crdOpenAPISource(informer, logger),
    synced: informer.waitForSync(),
    stop: () => {
      naming.stop();
      apiApproval.stop();
      establishing.stop();
      finalizer.stop();
      informer.stop();
    },
  };
}

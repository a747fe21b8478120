/**
 * The custom-resource converters (apiextensions-apiserver pkg/apiserver/conversion/converter.go):
 * CRConverterFactory.NewConverter gives the CRD's converter by its conversion strategy. `None`
 * (nopConverter) only rewrites apiVersion, and stays synchronous in the served versions' codecs;
 * `Webhook` calls the CRD's webhook. crConverter refuses versions the CRD does not have and never
 * converts an object to the version it is in; the safe wrapper converts a copy.
 */
import type { CustomResourceDefinition } from "@servicenet/api/apiextensions/v1";
import { deepCopy, type KubeObject } from "../../../storage/index.ts";
import { WebhookConverter, type WebhookConverterOptions } from "./webhook-converter.ts";

/** Converts one custom resource to `toGV` (`group/version`). */
export interface CRConverter {
  convert(obj: KubeObject, toGV: string): Promise<KubeObject>;
}

/** CRConverterFactory: what the Webhook strategy's clients need. */
export interface CRConverterFactory {
  /** The converter of `crd`, or undefined for the None strategy (an apiVersion rewrite in place). */
  newConverter(crd: CustomResourceDefinition): CRConverter | undefined;
}

/** NewCRConverterFactory: the webhooks are reached as the admission webhooks are (service resolver, loopback, no kubeconfig credentials). */
export function newCRConverterFactory(o: WebhookConverterOptions): CRConverterFactory {
  return {
    newConverter: (crd) => {
      if (crd.spec.conversion?.strategy !== "Webhook") return undefined;
      return newCRConverter(crd, new WebhookConverter(crd, o));
    },
  };
}

/** crConverter wrapped in safeConverterWrapper: valid versions only, nothing to do within one version, a copy converted. */
function newCRConverter(crd: CustomResourceDefinition, delegate: CRConverter): CRConverter {
  const valid = new Set(crd.spec.versions.map((v) => `${crd.spec.group}/${v.name}`));
  return {
    convert: async (obj, toGV) => {
      const from = typeof obj.apiVersion === "string" ? obj.apiVersion : "";
      if (!valid.has(from)) throw new Error(`request to convert CR from an invalid group/version: ${from}`);
      if (!valid.has(toGV)) throw new Error(`request to convert CR to an invalid group/version: ${toGV}`);
      if (from === toGV) return obj;
      return delegate.convert(deepCopy(obj), toGV);
    },
  };
}

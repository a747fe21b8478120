/**
 * The webhook plugins' configuration (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/
 * config/kubeconfig.go LoadConfig): a WebhookAdmission naming, by absolute path, the kubeconfig
 * whose users are the webhooks' client credentials.
 */
import { isAbsolute } from "node:path";
import { field, fieldErrorString } from "@servicenet/api";
import { decodeConfigObject } from "../../../../util/runtime/decode.ts";
import { webhookAdmissionKinds, webhookAdmissionSchema } from "./apis/webhookadmission/types.ts";

/** The scheme LoadConfig decodes with (its own, made in kubeconfig.go). */
const scheme = "k8s.io/apiserver/pkg/admission/plugin/webhook/config/kubeconfig.go";

/** LoadConfig: the kubeconfig path of `configFile` ("" when the plugin has no configuration). */
export function loadConfig(configFile: string | undefined): string {
  if (configFile === undefined) return "";
  const obj = decodeConfigObject(configFile, webhookAdmissionKinds, scheme);
  const config = webhookAdmissionSchema.parse(obj);
  // path.IsAbs: a slash-rooted path ("" is not).
  if (!isAbsolute(config.kubeConfigFile))
    throw new Error(fieldErrorString(field.invalid("kubeConfigFile", config.kubeConfigFile, "must be an absolute file path")));
  return config.kubeConfigFile;
}

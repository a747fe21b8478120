/**
 * WebhookAdmission, the configuration of the ValidatingAdmissionWebhook and
 * MutatingAdmissionWebhook plugins (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/
 * config/apis/webhookadmission/v1/types.go and register.go: kind `WebhookAdmissionConfiguration` in
 * apiserver.config.k8s.io/v1, `WebhookAdmission` in apiserver.config.k8s.io/v1alpha1).
 */
import { z } from "zod";

/** The kinds the configuration is registered under, by group version. */
export const webhookAdmissionKinds = [
  { apiVersion: "apiserver.config.k8s.io/v1", kind: "WebhookAdmissionConfiguration" },
  { apiVersion: "apiserver.config.k8s.io/v1alpha1", kind: "WebhookAdmission" },
] as const;

export const webhookAdmissionSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  /** The kubeconfig whose users give the webhooks' client credentials, by server name. */
  kubeConfigFile: z.string().default(""),
});

export type WebhookAdmission = z.infer<typeof webhookAdmissionSchema>;

/**
 * AdmissionConfiguration, the file `--admission-control-config-file` names
 * (staging/src/k8s.io/apiserver/pkg/apis/apiserver/v1/types.go, the same shape in v1alpha1): per
 * plugin by name, a `path` to its configuration or the `configuration` embedded.
 */
import { z } from "zod";

/** The group versions the file may name (apiserver/v1 register.go, apiserver/v1alpha1 register.go). */
export const admissionConfigurationGroupVersions = ["apiserver.config.k8s.io/v1", "apiserver.k8s.io/v1alpha1"] as const;

export const admissionPluginConfigurationSchema = z.object({
  /** The plugin's name as `--enable-admission-plugins` spells it. */
  name: z.string().default(""),
  /** A file holding the plugin's configuration; relative paths are against the configuration file's directory. */
  path: z.string().optional(),
  /** The plugin's configuration embedded (a runtime.RawExtension: any object). */
  configuration: z.record(z.string(), z.unknown()).optional(),
});

export const admissionConfigurationSchema = z.object({
  apiVersion: z.string(),
  kind: z.literal("AdmissionConfiguration"),
  plugins: z.array(admissionPluginConfigurationSchema).nullish(),
});

export type AdmissionPluginConfiguration = z.infer<typeof admissionPluginConfigurationSchema>;
export type AdmissionConfiguration = z.infer<typeof admissionConfigurationSchema>;

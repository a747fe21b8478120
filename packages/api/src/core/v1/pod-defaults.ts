/**
 * PodSpec defaulting (pkg/apis/core/v1/defaults.go `SetDefaults_PodSpec`, `SetDefaults_Container`,
 * `SetDefaults_ContainerPort`), shared by Pods and the pod templates of workload controllers.
 */
import { protocols } from "./constants.ts";
import type { Container, PodSpec } from "./pod.ts";

/** `DefaultTerminationGracePeriodSeconds` (pkg/apis/core/v1/defaults.go). */
export const defaultTerminationGracePeriodSeconds = 30;
/** `v1.DefaultSchedulerName`. */
export const defaultSchedulerName = "default-scheduler";
/** `v1.TerminationMessagePathDefault`. */
export const terminationMessagePathDefault = "/dev/termination-log";

/** The image's tag, as `parsers.ParseImageName` reads it (a digest has none). */
function imageTag(image: string): string {
  if (image.includes("@")) return "";
  const slash = image.lastIndexOf("/");
  const colon = image.lastIndexOf(":");
  return colon > slash ? image.slice(colon + 1) : "";
}

/** `SetDefaults_Container`: pull policy from the tag, termination message path and policy. */
function setDefaultsContainer(c: Container): void {
  const fields = c as Record<string, unknown>;
  if (fields["imagePullPolicy"] === undefined || fields["imagePullPolicy"] === "") {
    const image = c.image ?? "";
    const tag = imageTag(image);
    // A digest pins the image; :latest or no tag means "always pull".
    fields["imagePullPolicy"] = !image.includes("@") && (tag === "" || tag === "latest") ? "Always" : "IfNotPresent";
  }
  fields["terminationMessagePath"] ??= terminationMessagePathDefault;
  if ((fields["terminationMessagePolicy"] ?? "") === "") fields["terminationMessagePolicy"] = "File";
  for (const p of c.ports ?? []) if (!p.protocol) p.protocol = protocols.TCP;
}

/**
 * `SetDefaults_PodSpec` and its containers' defaults: dnsPolicy ClusterFirst, restartPolicy Always,
 * an empty securityContext, terminationGracePeriodSeconds 30, schedulerName default-scheduler.
 * Mutates and returns `spec`.
 */
export function setDefaultsPodSpec(spec: PodSpec): PodSpec {
  const fields = spec as Record<string, unknown>;
  if ((fields["dnsPolicy"] ?? "") === "") fields["dnsPolicy"] = "ClusterFirst";
  if ((fields["restartPolicy"] ?? "") === "") fields["restartPolicy"] = "Always";
  fields["securityContext"] ??= {};
  spec.terminationGracePeriodSeconds ??= defaultTerminationGracePeriodSeconds;
  if ((fields["schedulerName"] ?? "") === "") fields["schedulerName"] = defaultSchedulerName;
  for (const c of spec.containers) setDefaultsContainer(c);
  for (const c of (fields["initContainers"] as Container[] | undefined) ?? []) setDefaultsContainer(c);
  return spec;
}

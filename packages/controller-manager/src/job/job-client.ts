/** The Job controller's writes over the one raw REST client: GET of a Job, PUT of its status. */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Job } from "@servicenet/api";
import { newRESTClient } from "@servicenet/client/rest";
import { controllerUserAgent } from "../controller/user-agent.ts";

/** What the Job controller reads and writes of Jobs. */
export interface JobClient {
  get(namespace: string, name: string): Promise<Job>;
  /** PUT of the status subresource (the resourceVersion guards it). */
  updateStatus(job: Job): Promise<Job>;
}

const seg = encodeURIComponent;

/** The job-controller's Job client. */
export function jobClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("job-controller")): JobClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const path = (ns: string, name: string) => `/apis/batch/v1/namespaces/${seg(ns)}/jobs/${seg(name)}`;
  return {
    get: (ns, name) => request<Job>("GET", path(ns, name)),
    updateStatus: (job) =>
      request<Job>("PUT", `${path(job.metadata.namespace ?? "", job.metadata.name ?? "")}/status`, {
        ...job,
        apiVersion: "batch/v1",
        kind: "Job",
      }),
  };
}

/** The CronJob controller's writes over the one raw REST client: Job create and delete, CronJob status. */
import type { KubeConfig } from "@kubernetes/client-node";
import type { CronJob, Job } from "@servicenet/api";
import { newRESTClient } from "@servicenet/client/rest";
import { controllerUserAgent } from "../controller/user-agent.ts";

/** What the CronJob controller writes. */
export interface CronJobClient {
  /** A fresh read (`cronJobControl.GetCronJob`), past the informer's copy. */
  getCronJob(namespace: string, name: string): Promise<CronJob>;
  createJob(namespace: string, job: Job): Promise<Job>;
  /** A delete with propagationPolicy Background (the Job's Pods follow it). */
  deleteJob(namespace: string, name: string): Promise<void>;
  updateStatus(cj: CronJob): Promise<CronJob>;
}

const seg = encodeURIComponent;

/** The cronjob-controller's client. */
export function cronJobClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("cronjob-controller")): CronJobClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const jobs = (ns: string) => `/apis/batch/v1/namespaces/${seg(ns)}/jobs`;
  return {
    getCronJob: (ns, name) => request<CronJob>("GET", `/apis/batch/v1/namespaces/${seg(ns)}/cronjobs/${seg(name)}`),
    createJob: (ns, job) => request<Job>("POST", jobs(ns), job),
    deleteJob: async (ns, name) => {
      await request<unknown>("DELETE", `${jobs(ns)}/${seg(name)}`, {
        apiVersion: "v1",
        kind: "DeleteOptions",
        propagationPolicy: "Background",
      });
    },
    updateStatus: (cj) =>
      request<CronJob>(
        "PUT",
        `/apis/batch/v1/namespaces/${seg(cj.metadata.namespace ?? "")}/cronjobs/${seg(cj.metadata.name ?? "")}/status`,
        { ...cj, apiVersion: "batch/v1", kind: "CronJob" },
      ),
  };
}

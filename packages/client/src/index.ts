/**
 * @servicenet/client: what client-go is to Kubernetes' components. Import the subpaths
 * (`@servicenet/client/tools/cache`, `/util/workqueue`, `/tools/clientcmd`,
 * `/tools/leaderelection`, `/tools/record`, `/tools/events`, `/errors`, `/rest`); this index re-exports
 * them all but `/tools/events`, whose EventRecorder and FakeRecorder are the events.k8s.io/v1
 * namesakes of `/tools/record`'s.
 */
export * from "./tools/cache/index.ts";
export * from "./util/workqueue/index.ts";
export * from "./tools/clientcmd/index.ts";
export * from "./tools/leaderelection/index.ts";
export * from "./tools/record/index.ts";
export * from "./errors/index.ts";
export * from "./rest/index.ts";

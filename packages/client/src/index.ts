/**
 * @servicenet/client: what client-go is to Kubernetes' components. Import the subpaths
 * (`@servicenet/client/tools/cache`, `/util/workqueue`, `/tools/clientcmd`,
 * `/tools/leaderelection`, `/tools/record`, `/errors`, `/rest`); this index re-exports them all.
 */
export * from "./tools/cache/index.ts";
export * from "./util/workqueue/index.ts";
export * from "./tools/clientcmd/index.ts";
export * from "./tools/leaderelection/index.ts";
export * from "./tools/record/index.ts";
export * from "./errors/index.ts";
export * from "./rest/index.ts";

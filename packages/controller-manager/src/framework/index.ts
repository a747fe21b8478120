/** The controller runner the controllers share; informers, queues and the rest come from @servicenet/client. */
export { Controller, defaultMaxRetries } from "./controller.ts";
export type { ControllerSpec } from "./controller.ts";
export { resourceVersionAtLeast } from "./resource-version.ts";

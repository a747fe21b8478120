/**
 * @servicenet/kubectl: an API client of the servicenet apiserver; it talks to it over HTTP only.
 * Object types come from @servicenet/api, the Table handlers and HumanDuration from
 * @servicenet/printers.
 */
export * from "./describe/index.ts";
export * from "./printers/index.ts";
export * from "./usage/index.ts";
export * from "./util/index.ts";
/** The `servicenet-kubectl` CLI in-process: `kubectlMain(argv, io)` resolves to the exit code. */
export { main as kubectlMain, usageText as kubectlUsageText, type IO as KubectlIO, type Sink as KubectlSink } from "./cmd/kubectl.ts";

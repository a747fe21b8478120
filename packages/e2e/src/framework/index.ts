/**
 * The e2e framework (upstream: `test/e2e/framework` and `test/integration/framework`): the real
 * processes of a cluster, each started from its package's `bin`.
 */
export { apiserverBin, binOf, controllerManagerBin, kubeProxyBin } from "./bins.ts";
export * from "./processes.ts";
export * from "./netns-process.ts";
export { findChromium, renderPage, screenshotURL } from "./chromium.ts";
export { openPage } from "./chromium-session.ts";
export type { BrowserPage } from "./chromium-session.ts";

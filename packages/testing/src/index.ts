export { eventually, type EventuallyOptions } from "./eventually.ts";
export { findKubectl, kubectlEnvVar, type FindKubectlOptions } from "./kubectl.ts";
export { FakeAPIServer, startFakeAPIServer, type FakeAPIServerOptions, type TableBuilder, type TableOptions } from "./apiserver/server.ts";
export { ObjectTracker, type KubeObject, type ObjectMeta, type TrackerEvent } from "./apiserver/tracker.ts";
export { once, type Action, type Reaction, type Reactor, type Verb } from "./apiserver/reactors.ts";
export { apiVersionOf, defaultResources, groupResource, rbacResources, type ResourceInfo } from "./apiserver/resources.ts";
export { expired, failure, internalError, type Status } from "./apiserver/status.ts";

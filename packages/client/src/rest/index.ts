/** client-go rest's role: the one raw REST client, warnings, and client-node models as plain wire JSON. */
export { toPlain, asBody } from "./plain.ts";
export { newRESTClient, statusErrorOf, RESTConfigError, RequestTimeoutError } from "./rest-client.ts";
export type { RESTClient, RESTClientOptions, RawRequest, RawResponse } from "./rest-client.ts";
export { warningTexts } from "./warnings.ts";
export { withRateLimit, DefaultQPS, DefaultBurst } from "./rate-limit.ts";
export type { ClientConnectionLimits } from "./rate-limit.ts";
export { defaultKubernetesUserAgent, addUserAgent } from "./user-agent.ts";
export { setUserAgent, userAgentOf } from "./config-user-agent.ts";
export { CachedTokenSource, withTokenSource } from "./token-source.ts";
export type { Token, TokenSource } from "./token-source.ts";

/** One resource request as the resource handler hands it to the REST verbs (rest.ts) and the subresource views. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AdmissionInterface } from "../admission/interfaces.ts";
import type { UserInfo } from "../authentication/user/user.ts";
import type { AuditInfo } from "./audit.ts";
import type { GenericStore } from "../registry/generic/store.ts";
import type { OutputFormat } from "./negotiation.ts";
import type { RequestInfo } from "./request-info.ts";
import type { ResourceDef } from "./resources.ts";

export interface ResourceRequest {
  req: IncomingMessage;
  res: ServerResponse;
  info: RequestInfo;
  def: ResourceDef;
  store: GenericStore;
  query: URLSearchParams;
  format: OutputFormat;
  shutdown: AbortSignal;
  /** The authenticated user (undefined without authentication), for the stores' write checks. */
  user?: UserInfo;
  /** The admission chain (none: nothing is admitted beyond the stores' own checks). */
  admission?: AdmissionInterface;
  /** The request's audit facts, where admission's audit annotations go. */
  audit?: AuditInfo;
  /** The request's deadline (Date.now() milliseconds), which admission webhooks' timeouts are cut to. */
  deadline?: number;
  /**
   * Called once a route serves the request (past go-restful's 404 and 405): from then on its metrics
   * carry the resource, whatever the handler answers (InstrumentRouteFunc wraps the route's handler).
   */
  onRouted?: () => void;
}

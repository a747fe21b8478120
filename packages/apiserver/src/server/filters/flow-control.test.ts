/**
 * The flow-control slot as a filter of the chain (WithPriorityAndFairness / WithMaxInFlightLimit,
 * staging/src/k8s.io/apiserver/pkg/server/filters): what reaches the limit, with which verb and
 * long-running flag, and what passes it by.
 */
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { parseRequestInfo } from "../request-info.ts";
import { newRequestContext, type Handler, type RequestContext } from "./context.ts";
import { withFlowControl, type FlowControlConfig } from "./flow-control.ts";

/** A context for `method path` whose request info parses as WithRequestInfo would. */
function contextFor(method: string, path: string): RequestContext {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = path;
  const ctx = newRequestContext(req, new ServerResponse(req));
  ctx.requestInfo = () => parseRequestInfo(ctx.path, method, ctx.url.searchParams);
  return ctx;
}

/** A max-in-flight limit that records what it was asked and admits everything. */
function recordingLimit(): { cfg: FlowControlConfig; asked: [string, boolean][] } {
  const asked: [string, boolean][] = [];
  return { asked, cfg: { maxInFlight: { admit: (verb, longRunning) => (asked.push([verb, longRunning]), () => {}) } } };
}

describe("withFlowControl", () => {
  it("without a limit, the filter is the next handler itself", () => {
    const next: Handler = () => Promise.resolve();
    expect(withFlowControl(undefined)(next)).toBe(next);
    expect(withFlowControl({})(next)).toBe(next);
  });

  it.each([
    ["GET", "/api/v1/namespaces/default/services", "list", false],
    ["POST", "/api/v1/namespaces/default/services", "create", false],
    ["GET", "/api/v1/services?watch=true", "watch", true],
    ["GET", "/healthz", "get", false],
  ])("%s %s reaches the limit as %s (long-running %s)", async (method, path, verb, longRunning) => {
    const { cfg, asked } = recordingLimit();
    let served = 0;
    await withFlowControl(cfg)(() => (served++, Promise.resolve()))(contextFor(method, path));
    expect(asked).toEqual([[verb, longRunning]]);
    expect(served).toBe(1);
  });

  it("a path whose request info does not parse is handled unlimited", async () => {
    const { cfg, asked } = recordingLimit();
    const ctx = contextFor("GET", "/api/v1/namespaces/%zz/services");
    ctx.requestInfo = () => {
      throw new Error("bad path");
    };
    let served = 0;
    await withFlowControl(cfg)(() => (served++, Promise.resolve()))(ctx);
    expect(asked).toEqual([]);
    expect(served).toBe(1);
  });

  it("the limit's seat goes back when the handler fails", async () => {
    let released = 0;
    const cfg: FlowControlConfig = { maxInFlight: { admit: () => () => released++ } };
    const failing = withFlowControl(cfg)(() => Promise.reject(new Error("storage down")));
    await expect(failing(contextFor("GET", "/api/v1/services"))).rejects.toThrow("storage down");
    expect(released).toBe(1);
  });
});

/**
 * The dispatcher alone, in process: nanoseconds per request through FlowControl.handle (classify
 * over the bootstrap FlowSchemas, work estimate, queue pick, dispatch, metrics) for a token user's
 * Service create, the request of apf.bench.ts, with a handler that does nothing.
 */
import { newBootstrapFlowControl } from "../src/util/flowcontrol/testing.ts";

/** The median over `rounds` of the mean ns per handled request, `perRound` requests each. */
export async function dispatchNsPerRequest(perRound: number, rounds: number): Promise<number> {
  const { fc } = newBootstrapFlowControl();
  const path = "/api/v1/namespaces/default/services";
  const digest = {
    user: { name: "bench", uid: "bench-uid", groups: ["system:authenticated"] },
    requestInfo: {
      isResourceRequest: true as const,
      verb: "create",
      apiGroup: "",
      namespace: "default",
      resource: "services",
      subresource: "",
      name: "",
      apiVersion: "v1",
      path,
    },
  };
  const request = { isResourceRequest: true, verb: "create", apiGroup: "", resource: "services", query: new URLSearchParams() };
  const hooks = { note: () => {}, exec: () => Promise.resolve() };
  const perRequest: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) await fc.handle(digest, request, hooks);
    perRequest.push(Number(process.hrtime.bigint() - start) / perRound);
  }
  return [...perRequest].sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
}

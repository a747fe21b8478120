/** A plain HTTP server that records each request and answers from a script, for the REST clients' tests. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";

export interface RecordedRequest {
  method: string;
  path: string;
  userAgent: string | undefined;
  body: unknown;
}

/** Answers every request with `answer(req)` (status and JSON body); `requests` lists them in order. */
export async function recordingServer(answer: (r: RecordedRequest) => { status: number; body: unknown }): Promise<{
  kubeConfig: KubeConfig;
  requests: RecordedRequest[];
  close: () => Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString("utf8")));
    req.on("end", () => {
      const r = {
        method: req.method ?? "",
        path: req.url ?? "",
        userAgent: req.headers["user-agent"],
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(r);
      const { status, body } = answer(r);
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const kubeConfig = new KubeConfig();
  const { port } = server.address() as AddressInfo;
  kubeConfig.loadFromClusterAndUser({ name: "c", server: `http://127.0.0.1:${port}`, skipTLSVerify: true }, { name: "u", token: "t" });
  return { kubeConfig, requests, close: () => new Promise((r) => server.close(() => r())) };
}

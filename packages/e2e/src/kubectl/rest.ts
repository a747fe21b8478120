/** A minimal HTTPS JSON client for fixtures: the apiserver's CA and bearer token, nothing else. */
import { request } from "node:https";

export interface Rest {
  /** Sends `body` as JSON; resolves to the decoded response, rejects on a non-2xx status. */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

/** A client for `url` trusting `ca` and sending `token`. */
export function restClient(url: string, ca: string, token: string): Rest {
  const call = <T>(method: string, path: string, body?: unknown): Promise<T> =>
    new Promise((resolve, reject) => {
      const data = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "application/json" };
      if (data !== undefined) {
        headers["Content-Type"] = method === "PATCH" ? "application/merge-patch+json" : "application/json";
        headers["Content-Length"] = String(Buffer.byteLength(data));
      }
      const req = request(new URL(path, url), { method, headers, ca }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => {
          const code = res.statusCode ?? 0;
          if (code < 200 || code > 299) reject(new Error(`${method} ${path}: ${code} ${text}`));
          else resolve(JSON.parse(text) as T);
        });
      });
      req.on("error", reject);
      req.end(data);
    });
  return { call };
}

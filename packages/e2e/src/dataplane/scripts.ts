/**
 * Small programs run with `ip netns exec NS node -e <script> ARGS` inside the namespaces: the
 * pods' echo server, the HTTP client the node and the client namespace send requests with, and
 * the forwarder that carries API connections into the control plane's node namespace. Inline so that
 * nothing outside the repository is needed.
 */

/** `echoServer PORT`: answers `endpoint=<local IP> client=<peer IP>` on [::]:PORT (v4-mapped too). */
export const echoServer = String.raw`
const http = require("http");
const port = Number(process.argv[1]);
const strip = (a) => (a || "").replace(/^::ffff:/, "");
http.createServer((req, res) => {
  const body = "endpoint=" + strip(req.socket.localAddress) + " client=" + strip(req.socket.remoteAddress) + "\n";
  res.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(body), connection: "close" });
  res.end(body);
}).listen({ port, host: "::", ipv6Only: false }, () => console.log("listening " + port));
`;

/**
 * `httpClient JSON`: JSON is `{ targets: [{ url, n }], timeoutMs }` for n sequential requests per
 * url, each on a new connection, or `{ until: url, deadlineMs, timeoutMs }` to retry one url until
 * it answers; `localAddress` optionally binds the source. Prints one JSON line: per url `{ ok,
 * endpoints: {ip: count}, clients, pairs: {"endpoint client": count}, errors: {code: count}, maxMs }`, or `{ okAt: epochMs, attempts }`
 * (okAt null when the deadline passed).
 */
export const httpClient = String.raw`
const http = require("http");
const spec = JSON.parse(process.argv[1]);
function once(url, timeoutMs) {
  return new Promise((resolve) => {
    const opts = { agent: false, timeout: timeoutMs, ...(spec.localAddress ? { localAddress: spec.localAddress } : {}) };
    const req = http.get(url, opts, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ body }));
      res.on("error", (e) => resolve({ error: e.code || String(e) }));
    });
    req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    req.on("error", (e) => resolve({ error: e.code || String(e) }));
  });
}
async function main() {
  if (spec.until) {
    let attempts = 0;
    while (Date.now() < spec.deadlineMs) {
      attempts++;
      const r = await once(spec.until, spec.timeoutMs);
      if (r.body !== undefined) return { okAt: Date.now(), attempts, body: r.body };
      await new Promise((s) => setTimeout(s, 20));
    }
    return { okAt: null, attempts };
  }
  const out = {};
  for (const t of spec.targets) {
    const o = (out[t.url] = { ok: 0, endpoints: {}, clients: {}, pairs: {}, errors: {}, maxMs: 0 });
    for (let i = 0; i < t.n; i++) {
      const t0 = Date.now();
      const r = await once(t.url, spec.timeoutMs);
      o.maxMs = Math.max(o.maxMs, Date.now() - t0);
      if (r.error !== undefined) { o.errors[r.error] = (o.errors[r.error] || 0) + 1; continue; }
      const m = /endpoint=(\S+) client=(\S+)/.exec(r.body);
      if (!m) { o.errors.BADBODY = (o.errors.BADBODY || 0) + 1; continue; }
      o.ok++;
      o.endpoints[m[1]] = (o.endpoints[m[1]] || 0) + 1;
      o.clients[m[2]] = (o.clients[m[2]] || 0) + 1;
      o.pairs[m[1] + " " + m[2]] = (o.pairs[m[1] + " " + m[2]] || 0) + 1;
    }
  }
  return out;
}
main().then((r) => process.stdout.write(JSON.stringify(r) + "\n"));
`;

/**
 * `forwarder FROM TO`: accepts on FROM and connects each connection to TO, where each is a port on
 * 127.0.0.1 (digits) or a unix socket path.
 */
export const forwarder = String.raw`
const net = require("net");
const [from, to] = process.argv.slice(1);
const addr = (a) => (/^[0-9]+$/.test(a) ? { host: "127.0.0.1", port: Number(a) } : { path: a });
net.createServer((c) => {
  const u = net.connect(addr(to));
  c.pipe(u); u.pipe(c);
  c.on("error", () => u.destroy()); u.on("error", () => c.destroy());
}).listen(addr(from), () => console.log("forwarding " + from));
`;

/** `udpEchoServer PORT NAME`: answers each datagram with `endpoint=NAME` on [::]:PORT (v4-mapped too). */
export const udpEchoServer = String.raw`
const dgram = require("dgram");
const [port, name] = process.argv.slice(1);
const s = dgram.createSocket({ type: "udp6", ipv6Only: false });
s.on("message", (msg, rinfo) => s.send("endpoint=" + name, rinfo.port, rinfo.address));
s.bind(Number(port), "::", () => console.log("listening udp " + port));
`;

/**
 * `udpClient JSON`: JSON is `{ host, port, sourcePort, want, deadlineMs, timeoutMs }`. Sends one
 * datagram at a time from the fixed source port (so every datagram is one conntrack flow) until
 * the answer names endpoint `want` or the deadline passes. Prints one JSON line
 * `{ okAt, answers: {endpoint: count}, silent }` (okAt null when the deadline passed).
 */
export const udpClient = String.raw`
const dgram = require("dgram");
const spec = JSON.parse(process.argv[1]);
const s = dgram.createSocket(spec.host.includes(":") ? "udp6" : "udp4");
const answers = {};
let silent = 0;
function once() {
  return new Promise((resolve) => {
    const t = setTimeout(() => { s.off("message", on); resolve(undefined); }, spec.timeoutMs);
    const on = (msg) => { clearTimeout(t); s.off("message", on); resolve(String(msg).replace(/^endpoint=/, "")); };
    s.on("message", on);
    s.send("ping", spec.port, spec.host);
  });
}
s.bind(spec.sourcePort, async () => {
  let okAt = null;
  while (Date.now() < spec.deadlineMs) {
    const a = await once();
    if (a === undefined) silent++;
    else answers[a] = (answers[a] || 0) + 1;
    if (a === spec.want) { okAt = Date.now(); break; }
    await new Promise((r) => setTimeout(r, 100));
  }
  s.close();
  process.stdout.write(JSON.stringify({ okAt, answers, silent }) + "\n");
});
`;

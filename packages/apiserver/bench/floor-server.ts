/**
 * The floor under `service-up-wrk.bench.ts`: the least a Service create through HTTPS on SQLite can
 * cost on this machine. A bare node:https server that reads the POSTed Service, gives it a uid, a
 * timestamp and a ClusterIP, and writes two rows (an IPAddress, then the Service) into the same kine
 * table with the same pragmas as the apiserver (schema.ts), group-committed per event-loop turn with
 * the apiserver's non-blocking retry of a busy write lock, then answers 201 with the object. No
 * routing, authentication, decoding against a schema, defaulting, validation, admission, managed
 * fields, allocator, watch fan-out or metrics: everything the apiserver adds on top of this is
 * Kubernetes. With a second argument N > 1 the server runs in N node:cluster processes on one port
 * and one database, as `servicenet up --workers N` does.
 *
 * With FLOOR_IP_FAMILIES=2 each create is a RequireDualStack one: an IPv4 and an IPv6 IPAddress, then
 * the Service with both (three rows), as the apiserver writes it in IPAddress mode.
 *
 * With FLOOR_ETCD=<endpoints> the two writes go to etcd instead, each as the apiserver's etcd
 * engine sends a create (one Txn: the key's mod revision must be 0, then put), through the same etcd3
 * client, all of a process's writes in flight at once on its one gRPC channel (keys under
 * FLOOR_ETCD_PREFIX, default `/floor-<pid>`): the etcd floor.
 *
 * Run: `node --import ./src/storage/testdata/register-ts.mjs bench/floor-server.ts DIR [N]`; prints
 * `floor-server https://127.0.0.1:PORT` once every process listens; SIGINT stops it.
 */
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:https";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Etcd3 } from "etcd3";
import { sql } from "../src/storage/sqlite/queries.ts";
import { busyTimeoutMs, openPragmas } from "../src/storage/sqlite/schema.ts";
import { WriteLock } from "../src/storage/sqlite/write-lock.ts";
import { ensureServingCerts } from "../src/server/tls.ts";

const [dir = ".", processesArg = "1"] = process.argv.slice(2);
const processes = Number(processesArg);
const dualStack = process.env["FLOOR_IP_FAMILIES"] === "2";

interface Row {
  key: string;
  value: string;
  done: () => void;
}

/** Two-row creates with the engine's group commit (one BEGIN IMMEDIATE per event-loop turn) and its WriteLock. */
function openLog(path: string): (key: string, value: string) => Promise<void> {
  const db = new Database(path);
  openPragmas(db);
  const lock = new WriteLock(db, busyTimeoutMs);
  const latest = db.prepare(sql.latest);
  const insert = db.prepare(sql.insert);
  // eslint-disable-next-line @typescript-eslint/unbound-method -- better-sqlite3 builds .immediate as a closure over the transaction; it needs no `this`
  const commit = db.transaction(function commitRows(rows: readonly Row[]) {
    for (const r of rows) {
      if (latest.get(r.key) !== undefined) throw new Error(`${r.key} exists`);
      insert.run(r.key, 1, 0, 0, 0, r.value, null);
    }
  }).immediate;
  let pending: Row[] = [];
  const flush = (): void => {
    const rows = pending;
    pending = [];
    if (lock.tryWrite(() => commit(rows)).busy) {
      pending = rows.concat(pending);
      lock.scheduleRetry(flush);
      return;
    }
    for (const r of rows) r.done();
  };
  return (key, value) =>
    new Promise((done) => {
      pending.push({ key, value, done });
      if (pending.length === 1) setImmediate(flush);
    });
}

/** Two creates per Service on etcd, each one Txn (mod revision 0, then put) as etcd-engine.ts sends it. */
function openEtcd(endpoints: string, prefix: string): (key: string, value: string) => Promise<void> {
  const client = new Etcd3({ hosts: endpoints.split(",") });
  return async (key, value) => {
    const k = Buffer.from(prefix + key);
    const res = await client.kv.txn({
      compare: [{ key: k, target: "Mod", result: "Equal", mod_revision: 0 }],
      success: [{ request_put: { key: k, value: Buffer.from(value) } }],
    });
    if (!res.succeeded) throw new Error(`${key} exists`);
  };
}

function serve(write: (key: string, value: string) => Promise<void>): Server {
  let n = 0;
  const tls = ensureServingCerts(join(dir, "pki"));
  // Named, so that create-profile.ts tells this handler's own time apart.
  return createServer({ key: tls.key, cert: tls.cert }, function handleCreate(req: IncomingMessage, res: ServerResponse) {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const svc = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      n++;
      const ip = `10.${(process.pid >> 2) & 3}.${(n >> 8) & 255}.${n & 255}`;
      const ips = dualStack ? [ip, `fd00:10::${(process.pid & 15).toString(16)}:${n.toString(16)}`] : [ip];
      const now = new Date().toISOString();
      Object.assign(svc.metadata, { namespace: "default", uid: randomUUID(), creationTimestamp: now });
      Object.assign(svc.spec, {
        clusterIP: ip,
        clusterIPs: ips,
        type: "ClusterIP",
        ipFamilies: dualStack ? ["IPv4", "IPv6"] : ["IPv4"],
        ipFamilyPolicy: dualStack ? "RequireDualStack" : "SingleStack",
      });
      for (const a of ips) {
        const ipAddress = {
          apiVersion: "networking.k8s.io/v1",
          kind: "IPAddress",
          metadata: { name: a, uid: randomUUID(), creationTimestamp: now },
          spec: { parentRef: { group: "", resource: "services", namespace: "default", name: svc.metadata.name } },
        };
        await write(`/registry/ipaddresses/${a}-${process.pid}-${n}`, JSON.stringify(ipAddress));
      }
      await write(`/registry/services/specs/default/${svc.metadata.name}-${process.pid}`, JSON.stringify(svc));
      const body = JSON.stringify(svc);
      res.writeHead(201, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
      res.end(body);
    })();
  });
}

if (cluster.isPrimary && processes > 1) {
  ensureServingCerts(join(dir, "pki"));
  let listening = 0;
  for (let i = 0; i < processes; i++) {
    cluster.fork().on("message", (m: { port?: number }) => {
      if (m.port !== undefined && ++listening === processes) process.stdout.write(`floor-server https://127.0.0.1:${m.port}\n`);
    });
  }
  process.once("SIGINT", () => process.exit(0));
} else {
  const etcd = process.env["FLOOR_ETCD"];
  const server = serve(etcd ? openEtcd(etcd, process.env["FLOOR_ETCD_PREFIX"] ?? `/floor-${process.pid}`) : openLog(join(dir, "floor.db")));
  server.listen(0, "127.0.0.1", () => {
    const port = (server.address() as { port: number }).port;
    if (cluster.isWorker) process.send?.({ port });
    else process.stdout.write(`floor-server https://127.0.0.1:${port}\n`);
  });
  process.once("SIGINT", () => process.exit(0));
  process.once("SIGTERM", () => process.exit(0));
}

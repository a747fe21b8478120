// A writer that is meant to be killed: it creates objects as fast as it can (16 in flight) and
// prints "ack <key>" for each create the store acknowledged. argv[2] is a StoreConfig as JSON.
import { register } from "node:module";

register("./ts-hooks.mjs", import.meta.url);
const { createStore } = await import("../storage.ts");
const store = await createStore(JSON.parse(process.argv[2]));
let next = 0;
async function worker() {
  for (;;) {
    const name = `obj-${next++}`;
    const key = `/registry/configmaps/crash/${name}`;
    await store.create(key, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, namespace: "crash" },
      data: { payload: "x".repeat(512) },
    });
    process.stdout.write(`ack ${key}\n`);
  }
}
process.stdout.write("ready\n");
await Promise.all(Array.from({ length: 16 }, worker));

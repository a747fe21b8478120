/**
 * ServiceREST benchmark over the memory Store: dual-stack RequireDualStack NodePort creates
 * (allocation + validation + storage write) at concurrency 1 and 16, then deletes, and the
 * startup restore of the resulting Services. Prints rows; writes nothing.
 * Run from packages/apiserver:
 *   node --import ./src/storage/testdata/register-ts.mjs src/registry/core/service/storage/rest.bench.ts
 */
import { body, newTestREST } from "./rest-testing.ts";
import { setIPFamilyPolicy, setTypeNodePort } from "./testing.ts";

function p99(lat: number[]): number {
  const s = [...lat].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(0.99 * s.length))]!;
}

async function run(n: number, concurrency: number): Promise<void> {
  const { rest, store } = await newTestREST("v4v6");
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const b = body(`s${next++}`, setTypeNodePort, setIPFamilyPolicy("RequireDualStack"));
        const s = performance.now();
        await rest.create("default", b);
        lat.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  console.log(`ServiceREST.create dual NodePort c=${concurrency}: ${Math.round(n / secs)} creates/s, p99 ${p99(lat).toFixed(3)} ms`);
  const r0 = performance.now();
  const again = await newTestREST("v4v6", store);
  const report = await again.rest.init();
  console.log(`restore of ${n} Services (${report.clusterIPs} IPs, ${report.nodePorts} ports): ${(performance.now() - r0).toFixed(1)} ms`);
  const d0 = performance.now();
  for (let i = 0; i < n; i++) await rest.delete("default", `s${i}`);
  console.log(`ServiceREST.delete c=1: ${Math.round(n / ((performance.now() - d0) / 1000))} deletes/s`);
}

await run(2000, 1);
await run(2000, 16);

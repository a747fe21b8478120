/**
 * batch/v1 Jobs and CronJobs over HTTP (pkg/registry/batch/job/storage/storage_test.go,
 * pkg/registry/batch/job/strategy_test.go TestJobStrategy, cronjob/strategy_test.go): the
 * generated selector and labels, defaulting, generation, the immutable template, the status
 * subresource's rules, the `status.successful` field selector.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../../server/testing.ts";

const jobs = "/apis/batch/v1/namespaces/default/jobs";
const cronjobs = "/apis/batch/v1/namespaces/default/cronjobs";
type Obj = {
  metadata: { uid: string; generation?: number; resourceVersion?: string; labels?: Record<string, string> };
  spec: Record<string, unknown> & { template: { metadata: { labels: Record<string, string> } } };
  status?: Record<string, unknown>;
};
type Status = { code: number; reason: string; message: string };

const template = (restartPolicy = "Never") => ({
  metadata: { labels: { app: "pi" } },
  spec: { restartPolicy, containers: [{ name: "pi", image: "perl" }] },
});
const job = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: "batch/v1",
  kind: "Job",
  metadata: { name },
  spec: { template: template(), ...spec },
});

describe("Jobs", () => {
  let s: TestServer;
  const send: TestServer["send"] = (...args) => s.send(...args);
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("create generates the selector and the Pod labels from the UID, defaults the spec, generation 1, empty status", async () => {
    const r = await send("POST", jobs, job("pi"));
    expect(r.status).toBe(201);
    const j = r.json() as Obj;
    const uid = j.metadata.uid;
    expect(j.metadata.generation).toBe(1);
    expect(j.status).toEqual({});
    expect(j.spec.selector).toEqual({ matchLabels: { "batch.kubernetes.io/controller-uid": uid } });
    expect(j.spec.template.metadata.labels).toEqual({
      app: "pi",
      "batch.kubernetes.io/controller-uid": uid,
      "batch.kubernetes.io/job-name": "pi",
      "controller-uid": uid,
      "job-name": "pi",
    });
    // SetDefaults_Job copies the template's labels before the registry adds its own.
    expect(j.metadata.labels).toEqual({ app: "pi" });
    expect(j.spec).toMatchObject({
      parallelism: 1,
      completions: 1,
      backoffLimit: 6,
      completionMode: "NonIndexed",
      suspend: false,
      manualSelector: false,
      podReplacementPolicy: "TerminatingOrFailed",
    });
  });

  it("rejects restartPolicy Always and a selector that is not generated, with upstream's messages", async () => {
    const always = await send("POST", jobs, job("always", { template: template("Always") }));
    expect(always.status).toBe(422);
    expect((always.json() as Status).message).toBe(
      'Job.batch "always" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    );
    const manual = await send("POST", jobs, job("manual", { manualSelector: true, selector: { matchLabels: { app: "other" } } }));
    expect(manual.status).toBe(422);
    expect((manual.json() as Status).message).toBe(
      'Job.batch "manual" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"pi"}: `selector` does not match template `labels`',
    );
  });

  it("the template is immutable, parallelism is not; a spec change bumps the generation", async () => {
    const created = (await send("POST", jobs, job("upd"))).json() as Obj;
    const scaled = structuredClone(created);
    scaled.spec["parallelism"] = 2;
    const r = await send("PUT", `${jobs}/upd`, scaled);
    expect(r.status).toBe(200);
    expect((r.json() as Obj).metadata.generation).toBe(2);
    const changed = r.json() as Obj;
    changed.spec.template.metadata.labels["extra"] = "x";
    const bad = await send("PUT", `${jobs}/upd`, changed);
    expect(bad.status).toBe(422);
    expect((bad.json() as Status).message).toMatch(/^Job\.batch "upd" is invalid: spec\.template: Invalid value: .*: field is immutable$/);
  });

  it("the status subresource keeps the spec and enforces the 1.33 rules; status.successful selects", async () => {
    const created = (await send("POST", jobs, job("st"))).json() as Obj;
    const done = {
      ...created,
      spec: { ...created.spec, parallelism: 5 },
      status: {
        startTime: "2026-01-01T00:00:00Z",
        completionTime: "2026-01-01T00:00:10Z",
        succeeded: 1,
        conditions: [{ type: "Complete", status: "True" }],
      },
    };
    const bad = await send("PUT", `${jobs}/st/status`, done);
    expect(bad.status).toBe(422);
    expect((bad.json() as Status).message).toBe(
      'Job.batch "st" is invalid: status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition',
    );
    done.status.conditions.unshift({ type: "SuccessCriteriaMet", status: "True" });
    const ok = await send("PUT", `${jobs}/st/status`, done);
    expect(ok.status).toBe(200);
    expect((ok.json() as Obj).spec["parallelism"]).toBe(1);
    const list = (await send("GET", `${jobs}?fieldSelector=status.successful=1`)).json() as { items: Obj[] };
    expect(list.items.map((i) => (i.metadata as { name?: string }).name)).toEqual(["st"]);
  });
  it("publishes batch/v1 in OpenAPI v3 and v2", async () => {
    const v3 = (await send("GET", "/openapi/v3/apis/batch/v1")).json() as { components: { schemas: Record<string, unknown> } };
    expect(Object.keys(v3.components.schemas)).toEqual(expect.arrayContaining(["io.k8s.api.batch.v1.Job", "io.k8s.api.batch.v1.CronJob"]));
    const v2 = (await send("GET", "/openapi/v2")).json() as { definitions: Record<string, unknown> };
    expect(Object.keys(v2.definitions)).toEqual(expect.arrayContaining(["io.k8s.api.batch.v1.JobSpec", "io.k8s.api.batch.v1.CronJobSpec"]));
  });
});

describe("CronJobs", () => {
  let s: TestServer;
  const send: TestServer["send"] = (...args) => s.send(...args);
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const cronJob = (name: string, schedule: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: "batch/v1",
    kind: "CronJob",
    metadata: { name },
    spec: { schedule, jobTemplate: { spec: { template: template() } }, ...extra },
  });

  it("create defaults the spec; a bad schedule or TZ= is 422 with robfig/cron's message", async () => {
    const r = await send("POST", cronjobs, cronJob("hello", "*/1 * * * *"));
    expect(r.status).toBe(201);
    expect((r.json() as Obj).spec).toMatchObject({
      concurrencyPolicy: "Allow",
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    const bad = await send("POST", cronjobs, cronJob("bad", "* * * *"));
    expect((bad.json() as Status).message).toBe(
      'CronJob.batch "bad" is invalid: spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]',
    );
    const tz = await send("POST", cronjobs, cronJob("tz", "TZ=Europe/Paris 0 * * * *"));
    expect((tz.json() as Status).message).toBe(
      'CronJob.batch "tz" is invalid: spec.schedule: Invalid value: "TZ=Europe/Paris 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    );
    const zone = await send("POST", cronjobs, cronJob("zone", "0 * * * *", { timeZone: "Mars/Olympus" }));
    expect((zone.json() as Status).message).toBe(
      'CronJob.batch "zone" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
    );
  });
});

import { describe, expect, it } from "vitest";
import { defaultOnReadService, normalizeClusterIPs } from "./normalize.ts";
import {
  makeService,
  setClusterIP,
  setClusterIPs,
  setHeadless,
  setIPFamilies,
  setSelector,
  setTypeExternalName,
  type Tweak,
} from "./testing.ts";
import { MetaTransaction, callbackTransaction, metaTransaction } from "./transaction.ts";

describe("normalizeClusterIPs", () => {
  it.each<{ name: string; old: Tweak[] | null; now: Tweak[]; want: { clusterIP?: string; clusterIPs?: string[] } }>([
    {
      name: "create: singular only",
      old: null,
      now: [setClusterIP("10.0.0.1")],
      want: { clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1"] },
    },
    {
      name: "create: plural only is left to validation",
      old: null,
      now: [
        (s) => {
          s.spec.clusterIPs = ["10.0.0.1"];
        },
      ],
      want: { clusterIPs: ["10.0.0.1"] },
    },
    { name: "create: neither", old: null, now: [], want: {} },
    {
      name: "update: old client omits clusterIPs",
      old: [setClusterIPs("10.0.0.1", "2000::1")],
      now: [setClusterIP("10.0.0.1")],
      want: { clusterIP: "10.0.0.1", clusterIPs: ["10.0.0.1", "2000::1"] },
    },
    {
      name: "update: clusterIP cleared, clusterIPs unchanged",
      old: [setClusterIPs("10.0.0.1")],
      now: [
        (s) => {
          s.spec.clusterIPs = ["10.0.0.1"];
        },
      ],
      want: { clusterIPs: undefined },
    },
    {
      name: "update: clusterIP changed, clusterIPs unchanged",
      old: [setClusterIPs("10.0.0.1")],
      now: [
        setClusterIP("10.0.0.2"),
        (s) => {
          s.spec.clusterIPs = ["10.0.0.1"];
        },
      ],
      want: { clusterIP: "10.0.0.2", clusterIPs: ["10.0.0.2"] },
    },
    {
      name: "update: both changed are left to validation",
      old: [setClusterIPs("10.0.0.1")],
      now: [setClusterIPs("10.0.0.2", "2000::2")],
      want: { clusterIP: "10.0.0.2", clusterIPs: ["10.0.0.2", "2000::2"] },
    },
  ])("$name", ({ old, now, want }) => {
    const svc = makeService("foo", ...now);
    normalizeClusterIPs(svc, old ? makeService("foo", ...old) : null);
    expect({ clusterIP: svc.spec.clusterIP, clusterIPs: svc.spec.clusterIPs }).toEqual(want);
  });
});

describe("defaultOnReadService (storage.go defaultOnReadIPFamilies, upstream TestServiceDefaultOnRead)", () => {
  it.each<{ name: string; primary: string; tweaks: Tweak[]; want: { policy?: string; families?: string[]; clusterIPs?: string[] } }>([
    {
      name: "missing clusterIPs v4",
      primary: "IPv4",
      tweaks: [setClusterIP("10.0.0.1")],
      want: { policy: "SingleStack", families: ["IPv4"], clusterIPs: ["10.0.0.1"] },
    },
    {
      name: "missing clusterIPs v6",
      primary: "IPv4",
      tweaks: [setClusterIP("2000::1")],
      want: { policy: "SingleStack", families: ["IPv6"], clusterIPs: ["2000::1"] },
    },
    {
      name: "dual IPs",
      primary: "IPv6",
      tweaks: [setClusterIPs("2000::1", "10.0.0.1")],
      want: { policy: "RequireDualStack", families: ["IPv6", "IPv4"], clusterIPs: ["2000::1", "10.0.0.1"] },
    },
    {
      name: "headless with selector",
      primary: "IPv6",
      tweaks: [setHeadless],
      want: { policy: "SingleStack", families: ["IPv6"], clusterIPs: ["None"] },
    },
    {
      name: "headless selectorless",
      primary: "IPv4",
      tweaks: [setHeadless, setSelector({})],
      want: { policy: "RequireDualStack", families: ["IPv4", "IPv6"], clusterIPs: ["None"] },
    },
    {
      name: "families already set: untouched",
      primary: "IPv4",
      tweaks: [setClusterIPs("10.0.0.1"), setIPFamilies("IPv4")],
      want: { families: ["IPv4"], clusterIPs: ["10.0.0.1"] },
    },
    { name: "ExternalName: nothing", primary: "IPv4", tweaks: [setTypeExternalName], want: {} },
  ])("$name", ({ primary, tweaks, want }) => {
    const svc = makeService("foo", ...tweaks);
    defaultOnReadService(svc, primary);
    expect({ policy: svc.spec.ipFamilyPolicy, families: svc.spec.ipFamilies, clusterIPs: svc.spec.clusterIPs }).toEqual(want);
  });

  it("drops internalTrafficPolicy from ExternalName services", () => {
    const svc = makeService("foo", setTypeExternalName);
    defaultOnReadService(svc, "IPv4");
    expect(svc.spec.internalTrafficPolicy).toBeUndefined();
  });
});

describe("transactions", () => {
  it("metaTransaction commits and reverts every member in order; callbacks are optional", async () => {
    const log: string[] = [];
    const mk = (n: string) => callbackTransaction({ commit: () => void log.push(`c${n}`), revert: async () => void log.push(`r${n}`) });
    const m = metaTransaction(mk("1"), callbackTransaction({}));
    m.add(mk("2"));
    await m.commit();
    await m.revert();
    expect(log).toEqual(["c1", "c2", "r1", "r2"]);
    expect(new MetaTransaction().transactions).toEqual([]);
  });
});

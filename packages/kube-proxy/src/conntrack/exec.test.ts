import { describe, expect, it } from "vitest";
import { deleteArgs, ExecConntrack, parseConntrackLine } from "./exec.ts";

describe("the conntrack tool", () => {
  it("parses -L lines: the first tuple is the original, the second the reply; IPv6 canonical", () => {
    expect(
      parseConntrackLine(
        "udp      17 28 src=10.0.0.1 dst=10.96.0.10 sport=40000 dport=53 src=10.244.0.5 dst=10.0.0.1 sport=5353 dport=40000 mark=0 use=1",
      ),
    ).toEqual({ protocol: "udp", origDst: "10.96.0.10", origPortDst: 53, replySrc: "10.244.0.5", replyPortSrc: 5353 });
    expect(
      parseConntrackLine(
        "udp      17 29 src=fd00::1 dst=fd00:10:96:0:0:0:0:a sport=1 dport=53 [UNREPLIED] src=fd00:10:244::5 dst=fd00::1 sport=53 dport=1 mark=0 use=1",
      ),
    ).toMatchObject({ origDst: "fd00:10:96::a", replySrc: "fd00:10:244::5" });
    expect(parseConntrackLine("conntrack v1.4.7 (conntrack-tools): 3 flow entries have been shown.")).toBeUndefined();
  });

  it("deletes by original destination (or any, for a NodePort) and reply source, counting what the tool reports", async () => {
    expect(
      deleteArgs("IPv4", { protocol: "udp", origDst: "10.96.0.10", origPortDst: 53, replySrc: "10.244.0.5", replyPortSrc: 5353 }),
    ).toEqual([
      "conntrack",
      "-D",
      "-f",
      "ipv4",
      "-p",
      "udp",
      "--orig-dst",
      "10.96.0.10",
      "--orig-port-dst",
      "53",
      "--reply-src",
      "10.244.0.5",
      "--reply-port-src",
      "5353",
    ]);
    const calls: string[][] = [];
    const ct = new ExecConntrack("ns1", async (argv) => {
      calls.push([...argv]);
      return calls.length === 1
        ? { code: 0, stdout: "", stderr: "conntrack v1.4.7 (conntrack-tools): 2 flow entries have been deleted.\n" }
        : { code: 1, stdout: "", stderr: "conntrack v1.4.7 (conntrack-tools): 0 flow entries have been deleted.\n" };
    });
    const n = await ct.clearEntries("IPv6", [
      { protocol: "udp", origPortDst: 30053, replySrc: "fd00::5", replyPortSrc: 53 },
      { protocol: "udp", origPortDst: 30053, replySrc: "fd00::6", replyPortSrc: 53 },
    ]);
    expect(n).toBe(2);
    expect(calls[0]?.slice(0, 6)).toEqual(["ip", "netns", "exec", "ns1", "conntrack", "-D"]);
    expect(calls[0]).not.toContain("--orig-dst");
  });
});

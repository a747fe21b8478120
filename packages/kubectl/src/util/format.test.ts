import { describe, expect, it } from "vitest";
import { TabWriter, describeTabWriterOptions, getTabWriterOptions } from "@servicenet/printers/tabwriter";
import { byteSlice, encodeGoString, goTrimSpace } from "./strings.ts";
import { goSort } from "./go-sort.ts";
import { goLocalLocation } from "./zoneinfo.ts";
import { formatRFC1123Z } from "./time.ts";

describe("TabWriter (Go text/tabwriter semantics)", () => {
  const run = (text: string, opts = describeTabWriterOptions): string => {
    const tw = new TabWriter(opts);
    tw.write(text);
    tw.flush();
    return tw.output();
  };
  it.each([
    ["aligns a column block", "a:\t1\nlonger:\t2\n", "a:       1\nlonger:  2\n"],
    ["pads a trailing empty cell (kubectl prints these trailing spaces)", "a:\t\nbb:\tx\n", "a:   \nbb:  x\n"],
    ["a line without tabs ends the block", "a:\t1\nplain\nlonger:\t2\n", "a:  1\nplain\nlonger:  2\n"],
    ["inner columns are sized per sub-block", "x\ta\tb\nx\tlong\tc\ny\tz\n", "x  a     b\nx  long  c\ny  z\n"],
    ["counts runes, not bytes", "é\t1\nab\t2\n", "é   1\nab  2\n"],
    ["keeps text after the last newline", "a\tb", "a  b"],
  ])("%s", (_name, input, want) => {
    expect(run(input)).toBe(want);
  });
  it("uses minwidth 6 and padding 3 for get tables", () => {
    expect(run("A\tB\nx\ty\n", getTabWriterOptions)).toBe("A     B\nx     y\n");
  });
  it("flush splits alignment like describe's Events section", () => {
    const tw = new TabWriter(describeTabWriterOptions);
    tw.write("a:\t1\n");
    tw.flush();
    tw.write("longer:\t2\n");
    tw.flush();
    expect(tw.output()).toBe("a:  1\nlonger:  2\n");
  });
});

describe("time formatting", () => {
  it.each([
    ["UTC", "Tue, 04 Mar 2025 05:06:07 +0000"],
    ["Asia/Kolkata", "Tue, 04 Mar 2025 10:36:07 +0530"],
    ["America/Los_Angeles", "Mon, 03 Mar 2025 21:06:07 -0800"],
  ])("formats RFC1123Z in the local zone (%s) like Go's time.Local", (tz, want) => {
    // time.Local as Go loads it from $TZ (kubectl reads it once at start, so the location is explicit here).
    expect(formatRFC1123Z("2025-03-04T05:06:07Z", goLocalLocation({ TZ: tz }))).toBe(want);
  });
  it("formats the zero time like Go", () => {
    expect(formatRFC1123Z(undefined)).toBe("Mon, 01 Jan 0001 00:00:00 +0000");
  });
  it.each([
    ["0001-01-01T00:00:00Z", "America/New_York", "Sun, 31 Dec 0000 19:03:58 -0456"],
    ["0005-03-01T12:00:00Z", "UTC", "Tue, 01 Mar 0005 12:00:00 +0000"],
    ["2050-07-15T12:00:00Z", "Europe/Berlin", "Fri, 15 Jul 2050 14:00:00 +0200"],
    ["2050-01-15T12:00:00Z", "Australia/Sydney", "Sat, 15 Jan 2050 23:00:00 +1100"],
    ["2024-07-01T12:00:00Z", "No/Such_Zone", "Mon, 01 Jul 2024 12:00:00 +0000"],
  ])("formats %s in %s from the system zoneinfo, footer rules included", (ts, tz, want) => {
    expect(formatRFC1123Z(ts, goLocalLocation({ TZ: tz }))).toBe(want);
  });
});

describe("Go string and sort helpers", () => {
  it("TrimSpace trims Go's Unicode spaces and keeps a BOM", () => {
    expect(goTrimSpace("\u0085\u00a0 x \u3000\u2029")).toBe("x");
    expect(goTrimSpace("\ufeffx\ufeff")).toBe("\ufeffx\ufeff");
  });
  it("byteSlice keeps the leading bytes of a cut character, encodeGoString writes them raw", () => {
    const cut = byteSlice("a€", 3);
    expect(encodeGoString(cut)).toEqual(Buffer.from([0x61, 0xe2, 0x82]));
    expect(encodeGoString("é€")).toEqual(Buffer.from("é€", "utf8"));
  });
  it("goSort sorts (ties land where pdqsort puts them; checked against kubectl in describe-differential)", () => {
    const xs = Array.from({ length: 200 }, (_, i) => (i * 7919) % 97);
    expect(goSort([...xs], (a, b) => a < b)).toEqual([...xs].sort((a, b) => a - b));
  });
});

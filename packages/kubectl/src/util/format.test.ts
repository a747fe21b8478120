import { describe, expect, it } from "vitest";
import { TabWriter, describeTabWriterOptions, getTabWriterOptions } from "./tabwriter.ts";
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
    const saved = process.env.TZ;
    process.env.TZ = tz;
    try {
      expect(formatRFC1123Z("2025-03-04T05:06:07Z")).toBe(want);
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });
  it("formats the zero time like Go", () => {
    expect(formatRFC1123Z(undefined)).toBe("Mon, 01 Jan 0001 00:00:00 +0000");
  });
});

import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newLogBackend } from "./backend.ts";

describe("newLogBackend", () => {
  const dir = mkdtempSync(join(tmpdir(), "audit-log-"));
  afterEach(() => vi.restoreAllMocks());

  it("appends one JSON line per event to a file only its owner reads", () => {
    const file = join(dir, "audit.log");
    const b = newLogBackend(file);
    b.processEvents({ auditID: "a" }, { auditID: "b" });
    b.shutdown();
    const again = newLogBackend(file);
    again.processEvents({ auditID: "c" });
    again.shutdown();
    expect(readFileSync(file, "utf8")).toBe('{"auditID":"a"}\n{"auditID":"b"}\n{"auditID":"c"}\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes to standard output for "-"', () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    newLogBackend("-").processEvents({ auditID: "x" });
    expect(write).toHaveBeenCalledWith('{"auditID":"x"}\n');
  });
});

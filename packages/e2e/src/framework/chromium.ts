/**
 * Headless Chromium (Debian's `chromium`) for the suites that check what a page looks like: renders
 * a local HTML file, returns the DOM after layout (`--dump-dom`) and writes a screenshot. Suites skip
 * visibly where no browser is installed (`.ci/run` installs it).
 */
import { execFile } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const candidates = [process.env["SERVICENET_CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** The Chromium binary, or undefined when none is installed. */
export function findChromium(): string | undefined {
  for (const c of candidates) {
    if (c === undefined || c === "") continue;
    try {
      accessSync(c, constants.X_OK);
      return c;
    } catch {
      /* next */
    }
  }
  return undefined;
}

/** Flags for a quiet, private, offline headless run (a fresh profile each time). */
function flags(profile: string): string[] {
  return [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    `--user-data-dir=${profile}`,
  ];
}

function run(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(bin, args, { timeout: 60_000, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${bin} failed: ${err.message}\n${stderr.slice(-2000)}`)) : resolve(stdout),
    ),
  );
}

/** Renders `htmlFile`: its DOM after layout, and a screenshot at `screenshot` (PNG, `width` x `height`). */
export async function renderPage(
  bin: string,
  htmlFile: string,
  screenshot: string,
  size: { width: number; height: number } = { width: 1200, height: 2400 },
): Promise<{ dom: string }> {
  const url = pathToFileURL(htmlFile).href;
  const profile = mkdtempSync(path.join(tmpdir(), "servicenet-chromium-"));
  try {
    const dom = await run(bin, [...flags(profile), "--dump-dom", url]);
    await run(bin, [...flags(profile), `--window-size=${size.width},${size.height}`, `--screenshot=${screenshot}`, url]);
    return { dom };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** A screenshot (PNG, `width` x `height`) of the page at `url`, e.g. a local server's. */
export async function screenshotURL(bin: string, url: string, screenshot: string, size = { width: 1400, height: 1800 }): Promise<void> {
  const profile = mkdtempSync(path.join(tmpdir(), "servicenet-chromium-"));
  try {
    await run(bin, [
      ...flags(profile),
      "--hide-scrollbars",
      `--window-size=${size.width},${size.height}`,
      `--screenshot=${screenshot}`,
      url,
    ]);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

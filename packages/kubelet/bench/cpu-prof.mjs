// Preloaded (`NODE_OPTIONS=--import`) into every process of a bench run when BENCH_CPU_PROF is set:
// node refuses --cpu-prof in NODE_OPTIONS, so this starts the same V8 sampling profiler through
// the in-process inspector and writes `<name>-<pid>.cpuprofile` (Chrome DevTools' format) to
// BENCH_CPU_PROF_DIR when the process exits.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  process.on("exit", () => {
    // The in-process session answers synchronously, so the profile is written before the exit.
    session.post("Profiler.stop", (err, res) => {
      if (err) return;
      const name = path.basename(process.argv[1] ?? "node", ".js");
      writeFileSync(path.join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}

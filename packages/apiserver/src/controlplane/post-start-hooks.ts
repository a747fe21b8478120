/**
 * Post-start hooks (staging/src/k8s.io/apiserver/pkg/server/hooks.go AddPostStartHook,
 * RunPostStartHooks): named steps that run once the server listens. Until a hook has finished,
 * its `poststarthook/<name>` check fails /healthz, /livez and /readyz.
 */
import { postStartHookHealthz, type HealthChecker } from "../server/healthz.ts";

/** One hook: its name and its work. */
export interface PostStartHook {
  name: string;
  run(): Promise<void>;
}

/** The hooks of one server, added before it starts and run in order after it listens. */
export class PostStartHooks {
  readonly #hooks: PostStartHook[] = [];
  readonly #done = new Set<string>();

  /** AddPostStartHook: a second hook of the same name is an error, as upstream's. */
  add(name: string, run: () => Promise<void>): void {
    if (this.#hooks.some((h) => h.name === name))
      throw new Error(`unable to add ${JSON.stringify(name)} because it was already registered`);
    this.#hooks.push({ name, run });
  }

  /** The health checks of the hooks: each fails until its hook finished. */
  healthChecks(): HealthChecker[] {
    return this.#hooks.map((h) => postStartHookHealthz(h.name, () => this.#done.has(h.name)));
  }

  /** Runs every hook in the order added; a failing hook stops the start, as upstream's fatal hook error. */
  async run(): Promise<void> {
    for (const h of this.#hooks) {
      await h.run();
      this.#done.add(h.name);
    }
  }
}

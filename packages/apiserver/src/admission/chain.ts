/**
 * The admission chain (k8s.io/apiserver/pkg/admission/chain.go chainAdmissionHandler): the
 * plugins in the configured order; the first refusal ends the request. Mutation is wrapped as
 * admission/reinvocation.go's reinvoker: when a plugin (a mutating webhook that changed the object)
 * asks for it, every mutating plugin runs once more, the in-tree ones in full and the webhooks by
 * their reinvocationPolicy.
 */
import type { Attributes } from "./attributes.ts";
import type { AdmissionContext, AdmissionInterface, AdmissionPlugin } from "./interfaces.ts";

/** A chain over `plugins`, run in the order given. */
export function newAdmissionChain(plugins: readonly AdmissionPlugin[]): AdmissionInterface {
  const mutators = plugins.filter((p) => p.admit !== undefined);
  const validators = plugins.filter((p) => p.validate !== undefined);
  return {
    mutating: mutators.length > 0,
    validating: validators.length > 0,
    async admit(a: Attributes, ctx: AdmissionContext): Promise<void> {
      const rc = { isReinvoke: false, shouldReinvoke: false, values: new Map<string, unknown>() };
      a.reinvocationContext = rc;
      for (const p of mutators) if (p.handles(a.operation)) await p.admit?.(a, ctx);
      if (!rc.shouldReinvoke) return;
      rc.isReinvoke = true;
      for (const p of mutators) if (p.handles(a.operation)) await p.admit?.(a, ctx);
    },
    async validate(a: Attributes, ctx: AdmissionContext): Promise<void> {
      for (const p of validators) if (p.handles(a.operation)) await p.validate?.(a, ctx);
    },
  };
}

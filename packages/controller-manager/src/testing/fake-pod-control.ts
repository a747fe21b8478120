/**
 * `FakePodControl` (pkg/controller/controller_utils.go): records the creates, deletes and patches
 * a controller asks for, optionally failing them (`err`) or refusing creates past `createLimit`.
 */
import type { OwnerReference, PodTemplateSpec } from "@servicenet/api";
import type { ControllerObject, PodControlInterface } from "../controller/pod-control.ts";

export class FakePodControl implements PodControlInterface {
  templates: PodTemplateSpec[] = [];
  controllerRefs: OwnerReference[] = [];
  deletePodName: string[] = [];
  patches: Record<string, unknown>[] = [];
  err: Error | undefined;
  createLimit = 0;
  createCallCount = 0;

  async createPods(_ns: string, template: PodTemplateSpec, _c: ControllerObject, controllerRef: OwnerReference): Promise<void> {
    this.createCallCount++;
    if (this.createLimit !== 0 && this.createCallCount > this.createLimit)
      throw new Error(`not creating pod, limit ${this.createLimit} already reached (create call ${this.createCallCount})`);
    this.templates.push(template);
    this.controllerRefs.push(controllerRef);
    if (this.err !== undefined) throw this.err;
  }

  async deletePod(_ns: string, name: string): Promise<void> {
    this.deletePodName.push(name);
    if (this.err !== undefined) throw this.err;
  }

  async patchPod(_ns: string, _name: string, patch: Record<string, unknown>): Promise<void> {
    this.patches.push(patch);
    if (this.err !== undefined) throw this.err;
  }

  /** `Clear`. */
  clear(): void {
    this.templates = [];
    this.controllerRefs = [];
    this.deletePodName = [];
    this.patches = [];
    this.createLimit = 0;
    this.createCallCount = 0;
  }
}

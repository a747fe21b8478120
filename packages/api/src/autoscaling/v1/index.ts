/** autoscaling/v1: Scale, the body of the `scale` subresources. */
export * from "./scale.ts";
export * from "./validation.ts";

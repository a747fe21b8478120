/** policy/v1: PodDisruptionBudget and Eviction, their validation and the disruption constants. */
export * from "./types.ts";
export * from "./validation.ts";
export * from "./helpers.ts";

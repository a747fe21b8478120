/** @servicenet/e2e: the cross-package integration suite (private). */
export const suiteName = "e2e" as const;

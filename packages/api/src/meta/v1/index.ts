// Filled in by the meta/v1 work; see design.md.
export {};

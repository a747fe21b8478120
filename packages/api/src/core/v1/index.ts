// Filled in by the core/v1 work; see design.md.
export {};

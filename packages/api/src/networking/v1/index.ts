// Filled in by the networking/v1 work; see design.md.
export {};

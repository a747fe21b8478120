// Filled in by the discovery/v1 work; see design.md.
export {};

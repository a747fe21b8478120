// Filled in by the networking/v1beta1 work; see design.md.
export {};

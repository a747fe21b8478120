// Filled in by the net work; see design.md.
export {};

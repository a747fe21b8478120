/**
 * kubectl's human-readable printer of server-side Tables (cli-runtime printers/tableprinter.go).
 * The Tables themselves come from @servicenet/printers.
 */
export * from "./render.ts";

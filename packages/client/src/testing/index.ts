/** Test helpers for API clients: an in-process fake apiserver (LIST, WATCH, recorded writes). */
export { FakeAPIServer } from "./fake-apiserver.ts";
export type { RecordedWrite } from "./fake-apiserver.ts";
export { ScriptedListWatch, flush, obj } from "./scripted-list-watch.ts";
export type { Obj } from "./scripted-list-watch.ts";

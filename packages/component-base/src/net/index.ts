/** Network helpers shared by the components' servers (Go's net.Listen semantics). */
export { listenLikeGo, splitHostPort } from "./listen.ts";

/** k8s.io/utils/clock: the real clock, a fake one for tests, and an abortable sleep. */
export { RealClock, realClock, backgroundClock, sleep } from "./clock.ts";
export type { Clock, TimerHandle, RealClockOptions } from "./clock.ts";
export { FakeClock } from "./fake-clock.ts";

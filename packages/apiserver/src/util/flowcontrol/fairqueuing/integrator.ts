/**
 * The time integral of a piecewise-constant variable (staging/src/k8s.io/apiserver/pkg/util/
 * flowcontrol/fairqueuing/integrator.go): its average, standard deviation and extremes since the
 * last reset. A priority level's seat demand goes through one; the borrowing adjustment reads and
 * resets it every period.
 */
import type { Clock } from "@servicenet/component-base/clock";

/** IntegratorResults: over `durationSeconds`; average and deviation are NaN when no time passed. */
export interface IntegratorResults {
  durationSeconds: number;
  average: number;
  deviation: number;
  min: number;
  max: number;
}

/** Integrator: `set` the current value as it changes, `reset` to read and start over. */
export class Integrator {
  readonly #clock: Clock;
  #lastTime: number;
  #x = 0;
  // The integrals of x^0, x^1 and x^2 over time, in seconds.
  #elapsed = 0;
  #integralX = 0;
  #integralXX = 0;
  #min = 0;
  #max = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#lastTime = clock.now();
  }

  /** The current value. */
  get value(): number {
    return this.#x;
  }

  /** Set: the variable has the value `x` from now on. */
  set(x: number): void {
    this.#update();
    this.#x = x;
    if (x < this.#min) this.#min = x;
    if (x > this.#max) this.#max = x;
  }

  /** Add: the variable changes by `dx`. */
  add(dx: number): void {
    this.set(this.#x + dx);
  }

  /** GetResults: the figures since the last reset, up to now. */
  getResults(): IntegratorResults {
    this.#update();
    const durationSeconds = this.#elapsed;
    if (durationSeconds <= 0) return { durationSeconds, average: NaN, deviation: NaN, min: this.#min, max: this.#max };
    const average = this.#integralX / durationSeconds;
    // sqrt(integral(x^2)/T - average^2): the deviation over time; rounding may make it slightly negative.
    const variance = this.#integralXX / durationSeconds - average * average;
    return { durationSeconds, average, deviation: variance >= 0 ? Math.sqrt(variance) : NaN, min: this.#min, max: this.#max };
  }

  /** Reset: the figures so far, then start over with the extremes at the current value. */
  reset(): IntegratorResults {
    const results = this.getResults();
    this.#elapsed = 0;
    this.#integralX = 0;
    this.#integralXX = 0;
    this.#min = this.#x;
    this.#max = this.#x;
    return results;
  }

  #update(): void {
    const now = this.#clock.now();
    const dt = (now - this.#lastTime) / 1000;
    this.#lastTime = now;
    if (dt <= 0) return;
    this.#elapsed += dt;
    this.#integralX += dt * this.#x;
    this.#integralXX += dt * this.#x * this.#x;
  }
}

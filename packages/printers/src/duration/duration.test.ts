/**
 * apimachinery pkg/util/duration/duration_test.go (TestHumanDuration, TestHumanDurationBoundaries,
 * TestShortHumanDurationBoundaries), in milliseconds, plus the cases the apiserver's and kubectl's
 * former copies pinned.
 */
import { describe, expect, it } from "vitest";
import { humanDuration, shortHumanDuration } from "./duration.ts";

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const Y = 365 * D;

describe("humanDuration", () => {
  it.each([
    // TestHumanDuration
    [1 * S, "1s"],
    [70 * S, "70s"],
    [190 * S, "3m10s"],
    [70 * M, "70m"],
    [47 * H, "47h"],
    [49 * H, "2d1h"],
    [(8 * 24 + 2) * H, "8d"],
    [367 * D, "367d"],
    [(365 * 2 * 24 + 25) * H, "2y1d"],
    [(365 * 8 * 24 + 2) * H, "8y"],
    // TestHumanDurationBoundaries. -2s+1ns is "0s" upstream because int(d.Seconds()) truncates
    // toward zero: the apiserver's old copy floored and printed "<invalid>" for -1999 ms.
    [-2 * S, "<invalid>"],
    [-2 * S + 1, "0s"],
    [-1500, "0s"],
    [0, "0s"],
    [S - 1, "0s"],
    [2 * M - 1, "119s"],
    [2 * M, "2m"],
    [2 * M + S, "2m1s"],
    [10 * M - 1, "9m59s"],
    [10 * M, "10m"],
    [10 * M + S, "10m"],
    [3 * H - 1, "179m"],
    [3 * H, "3h"],
    [3 * H + M, "3h1m"],
    [8 * H - 1, "7h59m"],
    [8 * H, "8h"],
    [8 * H + 59 * M, "8h"],
    [2 * D - 1, "47h"],
    [2 * D, "2d"],
    [2 * D + H, "2d1h"],
    [8 * D - 1, "7d23h"],
    [8 * D, "8d"],
    [8 * D + 23 * H, "8d"],
    [2 * Y - 1, "729d"],
    [2 * Y, "2y"],
    [2 * Y + 23 * H, "2y"],
    [2 * Y + 23 * H + 59 * M, "2y"],
    [2 * Y + D - 1, "2y"],
    [2 * Y + D, "2y1d"],
    [3 * Y, "3y"],
    [4 * Y, "4y"],
    [5 * Y, "5y"],
    [6 * Y, "6y"],
    [7 * Y, "7y"],
    [8 * Y - 1, "7y364d"],
    [8 * Y, "8y"],
    [8 * Y + 364 * D, "8y"],
    [9 * Y, "9y"],
    // The former copies' own tables.
    [-500, "0s"],
    [-1 * S, "0s"],
    [119 * S, "119s"],
    [150 * S, "2m30s"],
    [9 * M + 59 * S, "9m59s"],
    [179 * M, "179m"],
    [3 * H + 60 * S, "3h1m"],
    [7 * H + 59 * M, "7h59m"],
    [47 * H + 59 * M, "47h"],
    [48 * H, "2d"],
    [50 * H, "2d2h"],
    [8 * D - H, "7d23h"],
    [10 * D, "10d"],
    [2 * Y - D, "729d"],
    [3 * Y + 10 * D, "3y10d"],
  ])("%i ms -> %s", (ms, want) => {
    expect(humanDuration(ms)).toBe(want);
  });
});

describe("shortHumanDuration", () => {
  it.each([
    [-2 * S, "<invalid>"],
    [-2 * S + 1, "0s"],
    [0, "0s"],
    [S - 1, "0s"],
    [S, "1s"],
    [2 * S - 1, "1s"],
    [M - 1, "59s"],
    [M, "1m"],
    [2 * M - 1, "1m"],
    [H - 1, "59m"],
    [H, "1h"],
    [2 * H - 1, "1h"],
    [D - 1, "23h"],
    [D, "1d"],
    [2 * D - 1, "1d"],
    [Y - 1, "364d"],
    [Y, "1y"],
    [2 * Y - 1, "1y"],
    [2 * Y, "2y"],
  ])("%i ms -> %s", (ms, want) => {
    expect(shortHumanDuration(ms)).toBe(want);
  });
});

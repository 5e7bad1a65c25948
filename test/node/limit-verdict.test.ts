import { describe, expect, it } from "vitest";
import { judge, judgeAll, windowOf } from "../../worker/platform/limits";

/**
 * The one limit decision (worker/platform/limits.ts) that the database-counted limits (the
 * operator routes, sign-in's mailbox caps and the notification cap) all take: allowed up to the limit, else the
 * wait until the window that refused it ends, in whole seconds and never 0.
 */
describe("judge: the over-the-limit decision and its Retry-After", () => {
  const now = new Date("2026-11-25T10:00:41.300Z");
  const window = windowOf(now, 600);

  it("allows the max-th event of a window and refuses the next, saying the seconds left in the window", () => {
    expect(window).toEqual({ start: Date.parse("2026-11-25T10:00:00Z") / 1000, end: Date.parse("2026-11-25T10:10:00Z") / 1000 });
    expect(judge(10, 10, window.end, now)).toEqual({ allowed: true });
    expect(judge(11, 10, window.end, now)).toEqual({ allowed: false, retryAfterSeconds: 559 });
  });

  it("never says to wait 0 seconds, even at the window's last moment or past it", () => {
    expect(judge(2, 1, window.end, new Date(window.end * 1000 - 200))).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(judge(2, 1, window.end, new Date(window.end * 1000 + 5000))).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("a limit of 0 allows nothing (the notification cap switched off)", () => {
    expect(judge(1, 0, window.end, now).allowed).toBe(false);
  });

  it("several limits on one event: allowed only when all allow, else the longest wait", () => {
    expect(judgeAll([{ allowed: true }, { allowed: true }])).toEqual({ allowed: true });
    expect(judgeAll([{ allowed: true }, { allowed: false, retryAfterSeconds: 30 }, { allowed: false, retryAfterSeconds: 3000 }])).toEqual({
      allowed: false,
      retryAfterSeconds: 3000,
    });
  });
});

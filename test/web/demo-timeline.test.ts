/**
 * The demo's timeline rule (web/src/components/demo-timeline.ts), on a small script where every
 * number can be checked by hand, and on the real script against the spec's constants.
 */
import { describe, expect, it } from "vitest";
import {
  characters,
  createDemoTimeline,
  DEMO_LOOP_MS,
  DEMO_STEP_DELAYS_MS,
  DEMO_TYPING_MS_PER_CHAR,
} from "../../web/src/components/demo-timeline";
import { demo } from "../../web/src/content";

// "ab" (typed 0-100 ms) + 1000 ms pause, then "cde" (1100-1250 ms) + 500 ms pause; loop 3000 ms.
const small = createDemoTimeline(["ab", "cde"], { msPerChar: 50, stepDelaysMs: [1000, 500], loopMs: 3000 });

describe("demo timeline", () => {
  it("starts each step after the previous one is typed and its delay has passed", () => {
    expect(small.lengths).toEqual([2, 3]);
    expect(small.stepStarts).toEqual([0, 1100]);
    expect(small.finishedAt).toBe(1250);
    expect(small.duration).toBe(1750);
  });

  it("types one character per interval, from the step's start", () => {
    expect(small.frameAt(0)).toEqual({ step: 0, chars: 0, progress: 0 });
    expect(small.frameAt(49)).toEqual({ step: 0, chars: 0, progress: 0 });
    expect(small.frameAt(50)).toEqual({ step: 0, chars: 1, progress: 20 });
    expect(small.frameAt(100)).toEqual({ step: 0, chars: 2, progress: 40 });
    // The pause after the first step: it stays complete, the next one has not begun.
    expect(small.frameAt(1099)).toEqual({ step: 0, chars: 2, progress: 40 });
    expect(small.frameAt(1100)).toEqual({ step: 1, chars: 0, progress: 40 });
    expect(small.frameAt(1150)).toEqual({ step: 1, chars: 1, progress: 60 });
    expect(small.frameAt(1250)).toEqual({ step: 1, chars: 3, progress: 100 });
    // Finished until the loop ends.
    expect(small.frameAt(2999)).toEqual(small.finalFrame);
    expect(small.finalFrame).toEqual({ step: 1, chars: 3, progress: 100 });
  });

  it("names the next moment the frame changes", () => {
    expect(small.nextChangeAfter(0)).toBe(50);
    expect(small.nextChangeAfter(60)).toBe(100);
    expect(small.nextChangeAfter(100)).toBe(1100);
    expect(small.nextChangeAfter(1100)).toBe(1150);
    expect(small.nextChangeAfter(1250)).toBe(3000);
  });

  it("counts characters as they are seen", () => {
    expect(characters("x² − 5 ✓")).toHaveLength(8);
    expect(characters("🎓 ok")).toEqual(["🎓", " ", "o", "k"]);
  });

  it("needs one delay per step", () => {
    expect(() => createDemoTimeline(["a", "b"], { msPerChar: 50, stepDelaysMs: [1000], loopMs: 3000 })).toThrow(/2 steps but 1/);
  });

  it("fits the real script into the 15 s loop, its last delay showing the finished solution", () => {
    const timeline = createDemoTimeline(
      demo.steps.map((step) => step.text),
      { msPerChar: DEMO_TYPING_MS_PER_CHAR, stepDelaysMs: DEMO_STEP_DELAYS_MS, loopMs: DEMO_LOOP_MS },
    );
    expect(DEMO_TYPING_MS_PER_CHAR).toBe(50);
    expect(DEMO_STEP_DELAYS_MS).toEqual([1000, 1500, 2000, 1000, 1500, 2000]);
    expect(DEMO_LOOP_MS).toBe(15_000);
    expect(timeline.duration).toBeLessThanOrEqual(DEMO_LOOP_MS);
    const typedAt = timeline.duration - DEMO_STEP_DELAYS_MS[5];
    // The demo starts from this moment (the finished solution the prerendered page shows).
    expect(timeline.finishedAt).toBe(typedAt);
    expect(timeline.frameAt(typedAt)).toEqual(timeline.finalFrame);
    expect(timeline.frameAt(typedAt - 1).progress).toBeLessThan(100);
  });
});

/**
 * The hero's typing demo (spec §2, §9) under fake timers: the six steps in order, one character
 * every 50 ms, the step delays 1000, 1500, 2000, 1000, 1500, 2000 ms (each the pause after its
 * step), the percentage progress bar, the restart every 15000 ms, and the finished solution at
 * once for reduced motion. Expected times are worked out here from the spec's numbers.
 *
 * The demo starts on its finished solution (what the prerendered page shows, with or without
 * JavaScript), as at the moment in a run when the last step is typed: it holds it for the rest
 * of that run, then types from the start at the run's 15 s mark, and every 15 s after.
 */
import { act, render } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Demo } from "../../web/src/components/Demo";
import { demo } from "../../web/src/content";
import { preferReducedMotion } from "./helpers";

const KINDS = ["question", "thinking", "step", "calculation", "solution", "result"];
const MS_PER_CHAR = 50;
const DELAYS = [1000, 1500, 2000, 1000, 1500, 2000];
const LOOP = 15_000;

const texts = demo.steps.map((step) => step.text);
const lengths = texts.map((text) => Array.from(text).length);
const total = lengths.reduce((sum, length) => sum + length, 0);
/** When each step starts: after the previous step is typed and its delay has passed. */
const starts = lengths.map((_, index) =>
  lengths.slice(0, index).reduce((sum, length, before) => sum + length * MS_PER_CHAR + DELAYS[before]!, 0),
);

/** When, in a run, the last step is fully typed: the moment the demo starts from. */
const finished = starts[5]! + lengths[5]! * MS_PER_CHAR;
/** From mounting to the first restart: the rest of the run the demo starts in. */
const firstRestart = LOOP - finished;

type Row = { kind: string; state: string; typed: string; rest: string };

function renderDemo() {
  const { container } = render(<Demo />);
  let now = 0;
  const at = (t: number) => {
    act(() => {
      vi.advanceTimersByTime(t - now);
    });
    now = t;
  };
  return {
    container,
    /** Moves the clock to `t` ms after the demo mounted. */
    at,
    /** Moves the clock to `t` ms into the first whole run (the one that starts at the first restart). */
    inRun: (t: number) => at(firstRestart + t),
    complete: () => container.querySelector<HTMLElement>(".demo__window")?.dataset.complete,
    rows(): Row[] {
      return [...container.querySelectorAll<HTMLElement>(".demo__step")].map((row) => ({
        kind: row.dataset.kind ?? "",
        state: row.dataset.state ?? "",
        typed: row.querySelector(".demo__typed")?.textContent ?? "",
        rest: row.querySelector(".demo__rest")?.textContent ?? "",
      }));
    },
    progress(): { value: number; text: string } {
      const bar = container.querySelector("progress")!;
      return { value: Number(bar.getAttribute("value")), text: container.querySelector(".demo__percent")?.textContent ?? "" };
    },
  };
}

/** What the rows should show while step `step` has `chars` characters typed. */
function expectedRows(step: number, chars: number): Row[] {
  return texts.map((text, index) => {
    const shown = index < step ? lengths[index]! : index === step ? chars : 0;
    const all = Array.from(text);
    return {
      kind: KINDS[index]!,
      state: index < step ? "done" : index === step ? "active" : "pending",
      typed: all.slice(0, shown).join(""),
      rest: all.slice(shown).join(""),
    };
  });
}

const percent = (typed: number) => Math.round((typed / total) * 100);

beforeEach(() => {
  vi.useFakeTimers();
});

describe("Demo", () => {
  it("has the six steps in the spec's order, and a script that finishes within the loop", () => {
    expect(demo.steps.map((step) => step.kind)).toEqual(KINDS);
    // Typed well before the restart; the finished solution shows at least the last delay.
    expect(finished + DELAYS[5]!).toBeLessThanOrEqual(LOOP);
  });

  it("starts on the finished solution, 100%, as the prerendered page shows it", () => {
    const view = renderDemo();

    expect(view.rows()).toEqual(expectedRows(5, lengths[5]!));
    expect(view.progress()).toEqual({ value: 100, text: "100%" });
    expect(view.complete()).toBe("true");
  });

  it("holds the solution for the rest of that run, then types from the start at the run's 15 s mark", () => {
    const view = renderDemo();

    view.at(firstRestart - 1);
    expect(view.rows()).toEqual(expectedRows(5, lengths[5]!));
    expect(view.progress().value).toBe(100);

    view.at(firstRestart);
    expect(view.rows()).toEqual(expectedRows(0, 0));
    expect(view.progress()).toEqual({ value: 0, text: "0%" });
    expect(view.complete()).toBe("false");
  });

  it("types the question one character every 50 ms", () => {
    const view = renderDemo();

    view.inRun(49);
    expect(view.rows()[0]!.typed).toBe("");
    view.inRun(50);
    expect(view.rows()[0]!.typed).toBe(Array.from(texts[0]!)[0]);
    view.inRun(50 * 5);
    expect(view.rows()).toEqual(expectedRows(0, 5));
    expect(view.progress()).toEqual({ value: percent(5), text: `${percent(5)}%` });
    view.inRun(lengths[0]! * MS_PER_CHAR);
    expect(view.rows()).toEqual(expectedRows(0, lengths[0]!));
  });

  it("starts every step after the previous one is typed and its delay has passed", () => {
    const view = renderDemo();

    for (let step = 1; step < KINDS.length; step += 1) {
      const start = starts[step]!;
      // Still pausing after the previous step, which is complete.
      view.inRun(start - 1);
      expect(view.rows()).toEqual(expectedRows(step - 1, lengths[step - 1]!));
      // The step appears (label, no characters), then types.
      view.inRun(start);
      expect(view.rows()).toEqual(expectedRows(step, 0));
      view.inRun(start + MS_PER_CHAR);
      expect(view.rows()).toEqual(expectedRows(step, 1));
      const typedBefore = lengths.slice(0, step).reduce((sum, length) => sum + length, 0);
      expect(view.progress().value).toBe(percent(typedBefore + 1));
      view.inRun(start + lengths[step]! * MS_PER_CHAR);
      expect(view.rows()).toEqual(expectedRows(step, lengths[step]!));
    }
    expect(starts.slice(1).map((start, index) => start - starts[index]! - lengths[index]! * MS_PER_CHAR)).toEqual(DELAYS.slice(0, 5));
  });

  it("shows 100% and the finished solution until the restart at 15000 ms, then starts over", () => {
    const view = renderDemo();

    view.inRun(finished - 1);
    expect(view.progress().value).toBeLessThan(100);
    view.inRun(finished);
    expect(view.rows()).toEqual(expectedRows(5, lengths[5]!));
    expect(view.progress()).toEqual({ value: 100, text: "100%" });
    view.inRun(LOOP - 1);
    expect(view.progress().value).toBe(100);

    view.inRun(LOOP);
    expect(view.rows()).toEqual(expectedRows(0, 0));
    expect(view.progress()).toEqual({ value: 0, text: "0%" });
    view.inRun(LOOP + MS_PER_CHAR);
    expect(view.rows()).toEqual(expectedRows(0, 1));
    view.inRun(2 * LOOP + starts[2]!);
    expect(view.rows()).toEqual(expectedRows(2, 0));
  });

  it("shows the finished solution at once, without timers, to visitors who prefer reduced motion", () => {
    preferReducedMotion();
    const view = renderDemo();

    expect(view.rows()).toEqual(expectedRows(5, lengths[5]!));
    expect(view.progress()).toEqual({ value: 100, text: "100%" });
    expect(vi.getTimerCount()).toBe(0);
    view.at(LOOP + 1000);
    expect(view.rows()).toEqual(expectedRows(5, lengths[5]!));
  });

  it("always lays out every step's full text, so nothing around it moves", () => {
    const view = renderDemo();

    for (const t of [0, 120, starts[2]! + 75, starts[4]!, LOOP - 1]) {
      view.at(t);
      expect(view.rows().map((row) => row.typed + row.rest)).toEqual(texts);
    }
  });

  it("gives screen readers the whole solution instead of the animation", () => {
    const view = renderDemo();

    expect(view.container.querySelector(".demo__window")?.getAttribute("aria-hidden")).toBe("true");
    const description = view.container.querySelector(".visually-hidden")!;
    expect(description.textContent).toContain(demo.description);
    expect([...description.querySelectorAll("li")].map((item) => item.textContent)).toEqual(
      demo.steps.map((step) => `${demo.kindLabels[step.kind]}: ${step.text}`),
    );
  });

  it("stops its timer when it goes away", () => {
    const { unmount } = render(<Demo />);
    expect(vi.getTimerCount()).toBe(1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});

/**
 * The demo's timeline as a pure function of time, shared by the Demo component and its tests.
 *
 * The rule (spec §9 constants, below):
 * - A run starts at t = 0 and the demo starts over every `loopMs` (t is time since the run began).
 * - Steps are typed one after another, in script order. Step i starts at S(i): S(0) = 0 and
 *   S(i + 1) = S(i) + length(i) × msPerChar + delay(i); that is, each step's delay is the pause
 *   after it is fully typed, before the next step starts.
 * - From S(i) the step is shown (its label, no characters yet); its k-th character appears at
 *   S(i) + k × msPerChar, so it is fully typed at S(i) + length(i) × msPerChar.
 * - Progress is the share of the whole script's characters shown, in whole percent (rounded).
 * - After the last step is typed the finished solution stays until the run ends: at least the
 *   last step's delay when the script fits in the loop (`duration` <= `loopMs`); a script too
 *   long for the loop would be cut off by the restart.
 * Lengths count characters as people see them (code points), not UTF-16 units.
 */

/** Spec §9: the demo types one character every 50 ms. */
export const DEMO_TYPING_MS_PER_CHAR = 50;

/**
 * Spec §9: one delay per demo step, in step order. Each is the pause after that step is fully
 * typed, so the last one is how long the finished solution stays on screen before the next loop.
 */
export const DEMO_STEP_DELAYS_MS = [1000, 1500, 2000, 1000, 1500, 2000] as const;

/** Spec §9: the demo starts over this long after the previous run started. */
export const DEMO_LOOP_MS = 15_000;

export type DemoTiming = {
  msPerChar: number;
  /** One per step, in step order. */
  stepDelaysMs: readonly number[];
  loopMs: number;
};

export type DemoFrame = {
  /** The step being typed, or the last one typed while the demo pauses after it. */
  step: number;
  /** How many characters of that step are shown. */
  chars: number;
  /** Share of the whole script shown, 0 to 100. */
  progress: number;
};

export type DemoTimeline = {
  /** Each step's length in characters. */
  lengths: readonly number[];
  /** When each step starts, in ms from the start of the run. */
  stepStarts: readonly number[];
  /** When the last step is fully typed: from then on the finished solution shows until the run ends. */
  finishedAt: number;
  /** When the script is complete including the last step's delay. */
  duration: number;
  /** What is shown at `t` ms into a run (0 <= t < loopMs). */
  frameAt: (t: number) => DemoFrame;
  /** When, after `t`, the frame next changes; `loopMs` when nothing changes before the restart. */
  nextChangeAfter: (t: number) => number;
  /** The finished solution (what reduced motion shows). */
  finalFrame: DemoFrame;
};

/** Splits text into the characters a reader sees, so "x²" or an emoji is typed whole. */
export function characters(text: string): string[] {
  return Array.from(text);
}

export function createDemoTimeline(texts: readonly string[], timing: DemoTiming): DemoTimeline {
  if (texts.length === 0) throw new Error("The demo needs at least one step.");
  if (timing.stepDelaysMs.length !== texts.length) {
    throw new Error(`The demo has ${texts.length} steps but ${timing.stepDelaysMs.length} step delays.`);
  }
  const { msPerChar, stepDelaysMs, loopMs } = timing;
  const lengths = texts.map((text) => characters(text).length);
  const total = lengths.reduce((sum, length) => sum + length, 0);

  const stepStarts: number[] = [];
  const charsBefore: number[] = [];
  let start = 0;
  let typed = 0;
  lengths.forEach((length, index) => {
    stepStarts.push(start);
    charsBefore.push(typed);
    start += length * msPerChar + stepDelaysMs[index]!;
    typed += length;
  });
  const duration = start;
  const last = lengths.length - 1;

  const progressOf = (shown: number) => (total === 0 ? 100 : Math.round((shown / total) * 100));

  function stepAt(t: number): number {
    let step = 0;
    while (step < last && stepStarts[step + 1]! <= t) step += 1;
    return step;
  }

  function frameAt(t: number): DemoFrame {
    const step = stepAt(t);
    const chars = Math.min(lengths[step]!, Math.max(0, Math.floor((t - stepStarts[step]!) / msPerChar)));
    return { step, chars, progress: progressOf(charsBefore[step]! + chars) };
  }

  function nextChangeAfter(t: number): number {
    const { step, chars } = frameAt(t);
    let next: number;
    if (chars < lengths[step]!) next = stepStarts[step]! + (chars + 1) * msPerChar;
    else if (step < last) next = stepStarts[step + 1]!;
    else next = loopMs;
    return Math.min(next, loopMs);
  }

  return {
    lengths,
    stepStarts,
    finishedAt: stepStarts[last]! + lengths[last]! * msPerChar,
    duration,
    frameAt,
    nextChangeAfter,
    finalFrame: { step: last, chars: lengths[last]!, progress: 100 },
  };
}

import { useEffect, useState } from "react";
import { demo } from "../content";
import { usePrefersReducedMotion } from "../hooks/reduced-motion";
import {
  characters,
  createDemoTimeline,
  DEMO_LOOP_MS,
  DEMO_STEP_DELAYS_MS,
  DEMO_TYPING_MS_PER_CHAR,
  type DemoFrame,
} from "./demo-timeline";

const timeline = createDemoTimeline(
  demo.steps.map((step) => step.text),
  { msPerChar: DEMO_TYPING_MS_PER_CHAR, stepDelaysMs: DEMO_STEP_DELAYS_MS, loopMs: DEMO_LOOP_MS },
);

const stepCharacters = demo.steps.map((step) => characters(step.text));

const sameFrame = (a: DemoFrame, b: DemoFrame) => a.step === b.step && a.chars === b.chars && a.progress === b.progress;

/**
 * The hero's typing demo (spec §2, §9): a quadratic equation solved in six steps, restarting
 * every 15 s; the finished solution at once for visitors who prefer reduced motion.
 *
 * Nothing around it ever moves: every step's full text is always laid out, and what is not
 * typed yet is only invisible (visibility: hidden), so line breaks and height are those of the
 * finished solution from the first frame. The first render (the prerender and hydration) is the
 * finished solution, so the page shows the demo's point before any script runs, and without
 * JavaScript at all. The animation starts in an effect, from the moment in a run when the
 * solution is complete: the page does not jump, the solution stays for the rest of that run (as
 * at the end of every run) and the demo types from the start when the run ends. Screen readers
 * get the whole solution as text instead of the animation.
 */
export function Demo() {
  const reducedMotion = usePrefersReducedMotion();
  const [frame, setFrame] = useState<DemoFrame>(timeline.finalFrame);

  useEffect(() => {
    if (reducedMotion) {
      setFrame(timeline.finalFrame);
      return;
    }
    // Times come from the clock, not from counting timeouts, so late timers (busy main thread,
    // background tab) never stretch the loop: every frame is the one due at this moment. The run
    // is taken to have begun so long ago that its solution has just been completed: what the
    // first render shows.
    const startedAt = performance.now() - timeline.finishedAt;
    let timer: number | undefined;
    const tick = () => {
      const t = (performance.now() - startedAt) % DEMO_LOOP_MS;
      const next = timeline.frameAt(t);
      setFrame((current) => (sameFrame(current, next) ? current : next));
      timer = window.setTimeout(tick, timeline.nextChangeAfter(t) - t);
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [reducedMotion]);

  const complete = sameFrame(frame, timeline.finalFrame);

  return (
    <div className="demo">
      <div className="demo__window" aria-hidden="true" data-complete={complete}>
        <div className="demo__bar">
          <span className="demo__dots" />
          <span className="demo__title">{demo.title}</span>
          <span className="demo__subtitle">{demo.subtitle}</span>
        </div>
        <ol className="demo__steps">
          {demo.steps.map((step, index) => {
            const chars = stepCharacters[index]!;
            const state = index < frame.step ? "done" : index === frame.step ? "active" : "pending";
            const shown = state === "done" ? chars.length : state === "active" ? frame.chars : 0;
            return (
              <li key={step.kind} className="demo__step" data-kind={step.kind} data-state={state}>
                <span className="demo__label">{demo.kindLabels[step.kind]}</span>
                <span className="demo__text">
                  <span className="demo__typed">{chars.slice(0, shown).join("")}</span>
                  <span className="demo__rest">{chars.slice(shown).join("")}</span>
                </span>
              </li>
            );
          })}
        </ol>
        <div className="demo__progress">
          <progress className="demo__meter" max={100} value={frame.progress} />
          <span className="demo__percent">{frame.progress}%</span>
        </div>
      </div>
      <div className="visually-hidden">
        <p>{demo.description}</p>
        <ol>
          {demo.steps.map((step) => (
            <li key={step.kind}>
              {demo.kindLabels[step.kind]}: {step.text}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}

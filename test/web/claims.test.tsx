/**
 * Issue 24, the live claims: the page states what the worker wrote into it (worker/shared/claims.ts
 * through the <meta name="hh-claims"> web/src/claims.ts reads), with and without the students'
 * count, and the app hydrates the page the worker rewrote (its data-claim elements) without a
 * mismatch. The worker's own rewrite is tested in workerd (test/worker/page-cache.test.ts).
 */
import { act, render, screen, within } from "@testing-library/react";
import { hydrateRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CLAIM_LINES,
  CLAIMS_META,
  type ClaimKey,
  type Claims,
  FORM_NOTES,
  SPEC_CLAIMS,
  claimWords,
  claimsMetaContent,
} from "../../worker/shared/claims";
import { renderRoute } from "../../web/src/entry-server";
import { Site } from "../../web/src/Site";

vi.mock("../../web/src/auth/client", () => import("./idle-auth-client"));

const WITH_COUNT: Claims = { launch: "spring 2027", accuracyRate: "97%", responseTime: "under 10s", studentsWaiting: "1,200+" };
const WITHOUT_COUNT: Claims = { ...WITH_COUNT, studentsWaiting: null };

/** What the worker puts in the page's head. */
function setMeta(claims: Claims): void {
  const meta = document.createElement("meta");
  meta.name = CLAIMS_META;
  meta.content = claimsMetaContent(claims);
  document.head.append(meta);
}

/** The worker's pass over the built page (worker/features/pages/routes.ts), on the DOM: the marked elements' text, a null line removed. */
function rewriteClaims(container: HTMLElement, claims: Claims): void {
  const words = claimWords(claims);
  for (const element of container.querySelectorAll<HTMLElement>("[data-claim]")) {
    const key = element.dataset.claim as ClaimKey;
    if (!element.isConnected || !(key in words)) continue;
    const text = words[key];
    if (text === null) element.remove();
    else if (!CLAIM_LINES.includes(key)) element.textContent = text;
  }
}

let root: Root | undefined;
let container: HTMLElement | undefined;

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = undefined;
  container = undefined;
  for (const meta of document.head.querySelectorAll(`meta[name="${CLAIMS_META}"]`)) meta.remove();
});

const notes = () => [...document.querySelectorAll(".waitlist__note[data-claim='formNote']")].map((note) => note.textContent);
const statLabels = () => [...document.querySelectorAll(".stats dt")].map((dt) => dt.textContent);

describe("the page's claims", () => {
  it("without the worker's meta states the spec's claims, as prerendered", () => {
    window.history.replaceState(null, "", "/");
    render(<Site />);
    expect(statLabels()).toEqual(["Accuracy rate", "Response time", "Students waiting"]);
    expect(notes()).toEqual([FORM_NOTES.withCount, FORM_NOTES.withCount]);
    expect(screen.getByText(`Launching ${SPEC_CLAIMS.launch}`)).toBeTruthy();
  });

  it("with a count states it: the stats, the closing call to action, the forms' note with 'thousands'", () => {
    setMeta(WITH_COUNT);
    window.history.replaceState(null, "", "/");
    render(<Site />);
    const stats = document.querySelector<HTMLElement>(".stats")!;
    expect(within(stats).getByText("1,200+")).toBeTruthy();
    expect(within(stats).getByText("97%")).toBeTruthy();
    expect(within(stats).getByText("<10s")).toBeTruthy();
    expect(screen.getByText("Join 1,200+ students waiting for launch in spring 2027. Free for students, no subscriptions.")).toBeTruthy();
    expect(screen.getByText("Launching spring 2027")).toBeTruthy();
    expect(notes()).toEqual([FORM_NOTES.withCount, FORM_NOTES.withCount]);
  });

  it("below the threshold leaves the students' line out and the note says 'Join students already on our waitlist. No spam, ever.'", () => {
    setMeta(WITHOUT_COUNT);
    window.history.replaceState(null, "", "/");
    render(<Site />);
    expect(statLabels()).toEqual(["Accuracy rate", "Response time"]);
    expect(screen.queryByText(/students waiting/i)).toBeNull();
    expect(notes()).toEqual([
      "Join students already on our waitlist. No spam, ever.",
      "Join students already on our waitlist. No spam, ever.",
    ]);
    expect(screen.queryByText(/thousands/)).toBeNull();
    expect(screen.getByText("Be among the first when we launch in spring 2027. Free for students, no subscriptions.")).toBeTruthy();
  });

  it("ignores a meta it cannot read (the spec's claims)", () => {
    const meta = document.createElement("meta");
    meta.name = CLAIMS_META;
    meta.content = '{"launch":""}';
    document.head.append(meta);
    window.history.replaceState(null, "", "/");
    render(<Site />);
    expect(screen.getByText(`Launching ${SPEC_CLAIMS.launch}`)).toBeTruthy();
  });
});

describe("hydrating the page the worker rewrote", () => {
  it.each([
    ["with the count", WITH_COUNT],
    ["below the threshold", WITHOUT_COUNT],
  ])("%s: React finds exactly the rewritten markup", async (_, claims) => {
    window.history.replaceState(null, "", "/");
    container = document.createElement("div");
    // Built without the meta (the spec's claims), rewritten by the worker, then the app starts.
    container.innerHTML = renderRoute("/");
    document.body.append(container);
    rewriteClaims(container, claims);
    setMeta(claims);
    const statsBefore = container.querySelector(".stats");
    const recoverableErrors: unknown[] = [];
    const consoleError = vi.spyOn(console, "error");
    await act(async () => {
      root = hydrateRoot(container!, <Site ssrPath="/" onStarted={() => {}} />, {
        onRecoverableError: (error) => recoverableErrors.push(error),
      });
    });
    expect(recoverableErrors).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
    expect(container.querySelector(".stats")).toBe(statsBefore);
    expect(container.textContent).toContain("Launching spring 2027");
    expect(container.textContent?.includes("Students waiting")).toBe(claims.studentsWaiting !== null);
  });
});

/**
 * The web project's setup: Testing Library's cleanup after every test (globals are off, so it
 * does not register itself), a fresh address, storage, document and real clock, and the browser
 * APIs the site calls that jsdom lacks (it has no layout, scrolling or media queries).
 */
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeAll, vi } from "vitest";
import { mediaQueryList } from "./helpers";

// findBy* and waitFor wait up to 5 s instead of 1 s: on a busy two-core CI machine a render
// with several awaited calls can take longer than a second, and a test that waits for the
// right thing should not fail on the machine's speed. A passing test returns as soon as it can.
configure({ asyncUtilTimeout: 5_000 });

if (typeof window !== "undefined") {
  // Tests that need another answer replace it with vi.spyOn(window, "matchMedia").
  window.matchMedia = (query: string) => mediaQueryList(query, false);
  // jsdom implements neither; the site only asks for them to be done.
  Element.prototype.scrollIntoView = () => {};
  window.scrollTo = (() => {}) as typeof window.scrollTo;

  afterEach(() => {
    // A test that moves the clock (vi.useFakeTimers) never leaves it moved for the next one;
    // restored first, so the page is unmounted on the real clock.
    vi.useRealTimers();
    cleanup();
    window.localStorage.clear();
    window.history.replaceState(null, "", "/");
    document.title = "";
  });
}

// The pages that are chunks of their own (web/src/pages/route-chunks.tsx) are loaded before the
// tests, as the build's prerender and the browser's hydration load them: a test renders a route
// in full at once, as a visitor's deep link shows it. Imported in a hook, not at the top: the
// test file's vi.mock calls (the sign-in library, the shared rules) are registered by then, and
// the pages and the copy get the mocks.
beforeAll(async () => {
  const { preloadAllRoutes } = await import("../../web/src/pages/route-chunks");
  await preloadAllRoutes();
});

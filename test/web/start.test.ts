/**
 * The start script (web/src/start.ts, inlined into index.html by web/build.ts) in a page laid out
 * as the build lays it out: #root holding the home page, every other route's page a file of its
 * own (fetched here from a stand-in). It shows the address's route once the document is parsed
 * and its page is in, holds a sign-in submitted before the app runs, follows a back-to-home
 * press, and imports the app after the first paint.
 */
import { waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startSite } from "../../web/src/start";

/** The listeners the start script adds to the document, removed after each test. */
let listeners: Parameters<Document["addEventListener"]>[] = [];

afterEach(() => {
  for (const [type, listener, options] of listeners) document.removeEventListener(type, listener, options);
  listeners = [];
  document.documentElement.removeAttribute("data-route-pending");
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

/** The route pages as the build names them (route -> address), and what each address answers. */
const PAGES = { "/login": "/assets/page-login-0123456789.htm", "/privacy-policy": "/assets/page-privacy-policy-0123456789.htm" };
const PAGE_FILES: Record<string, string> = {
  [PAGES["/login"]]: '<form><h1>Sign In</h1><button>Send Code</button></form><button type="button" data-go="/">Back to Home</button>',
  [PAGES["/privacy-policy"]]: "<h1>Privacy Policy</h1>",
};

/** A stand-in for fetch that serves PAGE_FILES (404 for anything else), or `answer` when given. */
function stubFetch(answer?: (url: string) => Promise<Response>) {
  const fetch = vi.fn(
    answer ?? (async (url: string) => (url in PAGE_FILES ? new Response(PAGE_FILES[url]) : new Response("Not found", { status: 404 }))),
  );
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

/**
 * The built page's body, the script started at `hash`, and the document then parsed. What was
 * fetched before the document was parsed is in `fetchedBeforeParse`.
 */
function startAt(hash: string, loadApp = vi.fn(async () => {}), fetch = stubFetch()) {
  window.history.replaceState(null, "", `/${hash}`);
  document.body.innerHTML =
    '<div id="root" data-prerendered="/"><h1>Home</h1><form action="/api/waitlist"><button>Join</button></form></div>';
  const add = vi.spyOn(document, "addEventListener");
  startSite(loadApp, PAGES);
  const pendingBeforeParse = document.documentElement.dataset.routePending !== undefined;
  const fetchedBeforeParse = fetch.mock.calls.map(([url]) => url);
  document.dispatchEvent(new Event("DOMContentLoaded"));
  listeners = add.mock.calls;
  const root = document.getElementById("root")!;
  return { root, loadApp, pendingBeforeParse, fetchedBeforeParse, fetch };
}

/** Until the route's page is in #root (its fetch answered after the document was parsed). */
async function pageIn(root: HTMLElement, route: string) {
  await waitFor(() => expect(root.dataset.prerendered).toBe(route));
}

describe("the start script", () => {
  it("leaves the home page in place for the home page and its anchors, and fetches nothing", () => {
    for (const hash of ["", "#contact", "#main"]) {
      const { root, pendingBeforeParse, fetch } = startAt(hash);
      expect(pendingBeforeParse).toBe(false);
      expect(root.querySelector("h1")?.textContent).toBe("Home");
      expect(root.dataset.prerendered).toBe("/");
      expect(fetch).not.toHaveBeenCalled();
    }
  });

  it("for a deep link fetches the route's page before the document is parsed, and shows it once both are done", async () => {
    let answer: (response: Response) => void = () => {};
    const fetch = stubFetch((url) => {
      expect(url).toBe(PAGES["/login"]);
      return new Promise<Response>((resolve) => {
        answer = resolve;
      });
    });
    const { root, pendingBeforeParse, fetchedBeforeParse, loadApp } = startAt("#/login", undefined, fetch);
    expect(pendingBeforeParse).toBe(true);
    expect(fetchedBeforeParse).toEqual([PAGES["/login"]]);
    // Parsed, the page not in yet: the home page stays hidden under the header, the app waits.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.documentElement.dataset.routePending).toBe("");
    expect(root.dataset.prerendered).toBe("/");
    expect(loadApp).not.toHaveBeenCalled();

    answer(new Response(PAGE_FILES[PAGES["/login"]]));
    await pageIn(root, "/login");
    expect(document.documentElement.dataset.routePending).toBeUndefined();
    expect(root.querySelector("h1")?.textContent).toBe("Sign In");
    expect(root.querySelector("form[action]"), "the home page's waitlist form").toBeNull();
    expect(fetch).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(loadApp).toHaveBeenCalledTimes(1));
  });

  it("leaves #root empty for the app to render an address with no prerendered page", () => {
    const { root, fetch } = startAt("#/nowhere");
    expect(root.childNodes).toHaveLength(0);
    expect(root.dataset.prerendered).toBeUndefined();
    expect(document.documentElement.dataset.routePending).toBeUndefined();
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    ["answered with an error", async () => new Response("gone", { status: 404 })],
    ["not answered (offline)", async () => Promise.reject(new TypeError("Failed to fetch"))],
    [
      "cut off mid-way",
      async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.error(new TypeError("network error"));
            },
          }),
        ),
    ],
  ])("leaves #root empty for the app to render a deep link whose page was %s", async (_, answer) => {
    const { root, loadApp } = startAt("#/privacy-policy", undefined, stubFetch(answer));
    await waitFor(() => expect(loadApp).toHaveBeenCalledTimes(1));
    expect(root.childNodes).toHaveLength(0);
    expect(root.dataset.prerendered).toBeUndefined();
    expect(document.documentElement.dataset.routePending).toBeUndefined();
  });

  it("holds a form without an action submitted before the app runs, and not after", async () => {
    const { root } = startAt("#/login");
    await pageIn(root, "/login");
    const form = root.querySelector("form")!;
    const submit = () => form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));

    expect(submit()).toBe(false);
    expect(form.dataset.pendingSubmit).toBe("");

    delete form.dataset.pendingSubmit;
    root.dataset.started = "";
    form.addEventListener("submit", (event) => event.preventDefault());
    submit();
    expect(form.dataset.pendingSubmit).toBeUndefined();
  });

  it("lets a form with an action post", () => {
    const { root } = startAt("");
    const form = root.querySelector("form")!;
    form.addEventListener("submit", (event) => event.preventDefault());
    form.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
    expect(form.dataset.pendingSubmit).toBeUndefined();
  });

  it("follows a back-to-home press before the app runs, and leaves it to the app after", async () => {
    const { root } = startAt("#/login");
    await pageIn(root, "/login");
    const button = root.querySelector<HTMLButtonElement>("button[data-go]")!;
    button.click();
    expect(location.hash).toBe("#/");

    window.history.replaceState(null, "", "/#/login");
    root.dataset.started = "";
    button.click();
    expect(location.hash).toBe("#/login");
  });

  it("imports the app once the prerendered page had a frame to paint, and logs a failure to load it", async () => {
    const failed = vi.fn(async () => {
      throw new Error("offline");
    });
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const frame = vi.spyOn(window, "requestAnimationFrame");
    startAt("", failed);
    expect(frame).toHaveBeenCalled();
    await waitFor(() => expect(failed).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith("Could not start the site's script.", expect.any(Error)));
  });

  it("imports the app at once when there is nothing prerendered to show", () => {
    const { loadApp } = startAt("#/nowhere");
    expect(loadApp).toHaveBeenCalledTimes(1);
  });
});

/**
 * The start script (web/src/start.ts, inlined into index.html by web/build.ts) in a page laid out
 * as the build lays it out: #root holding the home page, a template per other route. It shows
 * the address's route when the document is parsed, holds a sign-in submitted before the app
 * runs, follows a back-to-home press, and imports the app after the first paint.
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
});

/** The built page's body, the script started at `hash`, and the document then parsed. */
function startAt(hash: string, loadApp = vi.fn(async () => {})) {
  window.history.replaceState(null, "", `/${hash}`);
  document.body.innerHTML = [
    '<div id="root" data-prerendered="/"><h1>Home</h1><form action="/api/waitlist"><button>Join</button></form></div>',
    '<template data-route="/login"><form><h1>Sign In</h1><button>Send Code</button></form>',
    '<button type="button" data-go="/">Back to Home</button></template>',
    '<template data-route="/privacy-policy"><h1>Privacy Policy</h1></template>',
  ].join("");
  const add = vi.spyOn(document, "addEventListener");
  startSite(loadApp);
  const pendingBeforeParse = document.documentElement.dataset.routePending !== undefined;
  document.dispatchEvent(new Event("DOMContentLoaded"));
  listeners = add.mock.calls;
  const root = document.getElementById("root")!;
  return { root, loadApp, pendingBeforeParse };
}

describe("the start script", () => {
  it("leaves the home page in place for the home page and its anchors", () => {
    for (const hash of ["", "#contact", "#main"]) {
      const { root, pendingBeforeParse } = startAt(hash);
      expect(pendingBeforeParse).toBe(false);
      expect(root.querySelector("h1")?.textContent).toBe("Home");
      expect(root.dataset.prerendered).toBe("/");
      expect(document.querySelectorAll("template")).toHaveLength(0);
    }
  });

  it("for a deep link hides the home page until the parsed document has the route's page in #root", () => {
    const { root, pendingBeforeParse } = startAt("#/login");
    expect(pendingBeforeParse).toBe(true);
    expect(document.documentElement.dataset.routePending).toBeUndefined();
    expect(root.querySelector("h1")?.textContent).toBe("Sign In");
    expect(root.dataset.prerendered).toBe("/login");
    expect(document.querySelectorAll("template")).toHaveLength(0);
  });

  it("leaves #root empty for the app to render an address with no prerendered page", () => {
    const { root } = startAt("#/nowhere");
    expect(root.childNodes).toHaveLength(0);
    expect(root.dataset.prerendered).toBeUndefined();
  });

  it("holds a form without an action submitted before the app runs, and not after", () => {
    const { root } = startAt("#/login");
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

  it("follows a back-to-home press before the app runs, and leaves it to the app after", () => {
    const { root } = startAt("#/login");
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

/**
 * The browser hydrating a prerendered route (web/src/main.tsx): React must find exactly the
 * markup the build rendered (web/src/entry-server.tsx), for every route, even for a visitor with
 * a stored session or who prefers reduced motion, and only then show what depends on the
 * browser. What a visitor typed into the prerendered forms before the app started must survive.
 */
import { act, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { hydrateRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../web/src/entry-server";
import { Site } from "../../web/src/Site";
import { jsonResponse, mockFetch, preferReducedMotion, sentBody } from "./helpers";

vi.mock("../../web/src/auth/client", () => import("./idle-auth-client"));

let root: Root | undefined;
let container: HTMLElement | undefined;

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = undefined;
  container = undefined;
});

/**
 * Puts the route's prerendered HTML into the page as the start script does, lets `beforeApp` do
 * what the visitor (or their browser) does before the app runs, and hydrates as main.tsx does.
 */
async function hydrateRoute(path: string, beforeApp: (container: HTMLElement) => void = () => {}) {
  window.history.replaceState(null, "", path === "/" ? "/" : `/#${path}`);
  container = document.createElement("div");
  container.innerHTML = renderRoute(path);
  document.body.append(container);
  const heading = container.querySelector("h1");
  beforeApp(container);
  const recoverableErrors: unknown[] = [];
  const consoleError = vi.spyOn(console, "error");
  const started = vi.fn();
  await act(async () => {
    root = hydrateRoot(container!, <Site ssrPath={path} onStarted={started} />, {
      onRecoverableError: (error) => recoverableErrors.push(error),
    });
  });
  return { container, heading, recoverableErrors, consoleError, started };
}

/** The hero form's select of the age question named `name`. */
const select = (container: HTMLElement, name: string) =>
  container.querySelector<HTMLSelectElement>(`form[aria-label="Join the Inner Circle"] select[name="${name}"]`)!;

describe("hydration of the prerendered routes", () => {
  it.each(["/", "/privacy-policy", "/terms-of-service", "/login", "/me"])("matches the prerendered markup of %s", async (path) => {
    const { container, heading, recoverableErrors, consoleError, started } = await hydrateRoute(path);

    expect(recoverableErrors).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
    // Hydrated, not rendered again: the prerendered nodes are the app's.
    expect(heading).not.toBeNull();
    expect(container.querySelector("h1")).toBe(heading);
    expect(started).toHaveBeenCalled();
  });

  it("keeps what the visitor typed before the app started, and sends it", async () => {
    const fetchSpy = mockFetch(async () => jsonResponse(201, { email: "ada@example.com", joined_at: "2025-10-26T10:00:00.000Z" }));
    const field = (container: HTMLElement, selector: string) => container.querySelector<HTMLInputElement | HTMLTextAreaElement>(selector)!;
    const { container, recoverableErrors } = await hydrateRoute("/", (page) => {
      // Typed into the prerendered page: DOM values, no React event.
      field(page, 'form[aria-label="Join the Inner Circle"] input[name="email"]').value = "ada@example.com";
      // The age question's answer, chosen before the app ran (issue 23).
      select(page, "birth_month").value = "1";
      select(page, "birth_year").value = "1990";
      field(page, 'form[aria-label="Contact Form"] input[name="name"]').value = "Ada Lovelace";
      field(page, 'form[aria-label="Contact Form"] textarea[name="message"]').value = "Typed before the script";
    });

    expect(recoverableErrors).toEqual([]);
    const hero = container.querySelector<HTMLFormElement>('form[aria-label="Join the Inner Circle"]')!;
    expect(field(container, 'form[aria-label="Join the Inner Circle"] input[name="email"]').value).toBe("ada@example.com");
    expect([select(container, "birth_month").value, select(container, "birth_year").value]).toEqual(["1", "1990"]);
    expect(field(container, 'form[aria-label="Contact Form"] input[name="name"]').value).toBe("Ada Lovelace");
    expect(field(container, 'form[aria-label="Contact Form"] textarea[name="message"]').value).toBe("Typed before the script");

    await userEvent.setup().click(within(hero).getByRole("button", { name: "Join the Inner Circle" }));
    await within(within(hero).getByRole("status")).findByText("Success! You're on the list.");
    expect(sentBody(fetchSpy)).toEqual({ email: "ada@example.com", birth_month: "1", birth_year: "1990", source: "hero", website: "" });
  });

  it("matches a page built in an earlier year (the age question lists the build's years until hydrated, then this year's)", async () => {
    // Built on the last day of 2025, opened in 2027: the prerendered years end at 2025.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2025-12-31T12:00:00Z"));
    const html = renderRoute("/");
    vi.setSystemTime(new Date("2027-03-01T12:00:00Z"));
    try {
      container = document.createElement("div");
      container.innerHTML = html;
      document.body.append(container);
      window.history.replaceState(null, "", "/");
      // The app's modules are read after the page is there, as in the browser.
      vi.resetModules();
      const { Site: Fresh } = await import("../../web/src/Site");
      const recoverableErrors: unknown[] = [];
      const page = container;
      await act(async () => {
        root = hydrateRoot(page, <Fresh ssrPath="/" />, { onRecoverableError: (error) => recoverableErrors.push(error) });
      });

      expect(recoverableErrors.map(String)).toEqual([]);
      const years = [...select(page, "birth_year").options].map((option) => option.value);
      expect(years.slice(0, 3)).toEqual(["", "2027", "2026"]);
      expect(years).toHaveLength(1 + 121);
    } finally {
      vi.useRealTimers();
    }
  });

  it("leaves the forms' submit buttons enabled throughout: the page's own post works before the app", async () => {
    const { container } = await hydrateRoute("/");

    const submits = [...container.querySelectorAll<HTMLButtonElement>('form button[type="submit"]')];
    expect(submits).toHaveLength(3);
    expect(submits.every((button) => !button.disabled)).toBe(true);
  });

  it("matches for a signed-in visitor, then shows their e-mail", async () => {
    window.localStorage.setItem("hwh-auth", JSON.stringify({ access_token: "a", refresh_token: "r", user: { email: "ada@example.com" } }));
    const { container, recoverableErrors } = await hydrateRoute("/");

    expect(recoverableErrors).toEqual([]);
    expect(container.querySelector(".site-header")?.textContent).toContain("ada@example.com");
  });

  it("matches for reduced motion, and keeps the finished demo", async () => {
    preferReducedMotion();
    const { container, recoverableErrors } = await hydrateRoute("/");

    expect(recoverableErrors).toEqual([]);
    expect(container.querySelector("progress")?.getAttribute("value")).toBe("100");
    expect(container.querySelector<HTMLElement>(".demo__window")?.dataset.complete).toBe("true");
  });
});

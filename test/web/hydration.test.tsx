/**
 * The browser hydrating the prerendered home page (web/src/main.tsx): React must find exactly
 * the markup the build rendered, even for a visitor with a stored session or who prefers reduced
 * motion, and only then show what depends on the browser.
 */
import { StrictMode } from "react";
import { act } from "@testing-library/react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../../web/src/App";
import { preferReducedMotion } from "./helpers";

vi.mock("../../web/src/auth/client", () => import("./idle-auth-client"));

let root: Root | undefined;
let container: HTMLElement | undefined;

afterEach(() => {
  act(() => root?.unmount());
  container?.remove();
  root = undefined;
  container = undefined;
});

/** Prerenders the home page as the build does, lets `prepare` set up the visitor's browser, hydrates. */
async function hydrateHomePage(prepare: () => void = () => {}) {
  const html = renderToString(
    <StrictMode>
      <App ssrPath="/" />
    </StrictMode>,
  );
  prepare();
  container = document.createElement("div");
  container.innerHTML = html;
  document.body.append(container);
  const recoverableErrors: unknown[] = [];
  const consoleError = vi.spyOn(console, "error");
  await act(async () => {
    root = hydrateRoot(
      container!,
      <StrictMode>
        <App />
      </StrictMode>,
      { onRecoverableError: (error) => recoverableErrors.push(error) },
    );
  });
  return { container, recoverableErrors, consoleError };
}

describe("hydration of the prerendered home page", () => {
  it("matches the prerendered markup", async () => {
    const { recoverableErrors, consoleError } = await hydrateHomePage();

    expect(recoverableErrors).toEqual([]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("enables the forms' submit buttons once hydrated (they are disabled in the prerendered HTML)", async () => {
    const { container, recoverableErrors } = await hydrateHomePage();

    expect(recoverableErrors).toEqual([]);
    const submits = [...container.querySelectorAll<HTMLButtonElement>('form button[type="submit"]')];
    expect(submits).toHaveLength(3);
    expect(submits.every((button) => !button.disabled)).toBe(true);
  });

  it("matches for a signed-in visitor, then shows their e-mail", async () => {
    const { container, recoverableErrors } = await hydrateHomePage(() =>
      window.localStorage.setItem(
        "hwh-auth",
        JSON.stringify({ access_token: "a", refresh_token: "r", user: { email: "ada@example.com" } }),
      ),
    );

    expect(recoverableErrors).toEqual([]);
    expect(container.querySelector(".site-header")?.textContent).toContain("ada@example.com");
  });

  it("matches for reduced motion, then shows the finished demo", async () => {
    const { container, recoverableErrors } = await hydrateHomePage(preferReducedMotion);

    expect(recoverableErrors).toEqual([]);
    expect(container.querySelector("progress")?.getAttribute("value")).toBe("100");
  });
});

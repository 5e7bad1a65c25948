/**
 * The shared header (spec §2): section buttons that scroll the home page (from other pages
 * too), the waitlist buttons that bring the visitor to the hero form's first field, the style change
 * past 50 px of scroll, the small-screen menu (toggle, Escape, a tap outside, Logout), the same
 * menu before the app runs (prerendered, no script), the brand's mark and the sign-in area.
 */
import { StrictMode } from "react";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../../web/src/App";
import faviconSvg from "../../web/public/favicon.svg?raw";
import { preferReducedMotion } from "./helpers";

/**
 * The sign-in library stand-in: it never finishes loading (the header stays on the stored-session
 * hint), except where a test gives it a client to sign out with.
 */
const auth = vi.hoisted(() => ({ client: null as null | { signOut: (options: { scope: string }) => Promise<{ error: null }> } }));

vi.mock("../../web/src/auth/client", () => ({
  AUTH_STORAGE_KEY: "hwh-auth",
  getAuthClient: () => (auth.client ? Promise.resolve(auth.client) : new Promise<never>(() => {})),
  onAuthClientLoaded: () => () => {},
}));

let hydrated: { root: Root; container: HTMLElement } | undefined;

afterEach(() => {
  auth.client = null;
  if (hydrated) {
    act(() => hydrated!.root.unmount());
    hydrated.container.remove();
    hydrated = undefined;
  }
});

function renderAt(path: string) {
  window.history.replaceState(null, "", `/#${path}`);
  const user = userEvent.setup();
  render(<App />);
  const banner = screen.getByRole("banner");
  return { user, banner, toggle: () => within(banner).getByRole("button", { name: "Menu" }) };
}

function scrollTo(y: number) {
  act(() => {
    Object.defineProperty(window, "scrollY", { configurable: true, value: y });
    fireEvent.scroll(window);
  });
}

function signIn(email: string) {
  window.localStorage.setItem(
    "hwh-auth",
    JSON.stringify({ access_token: "a.b.c", refresh_token: "r", expires_at: 9_999_999_999, user: { email } }),
  );
}

/** The hero form's first field: the age question's month, before the e-mail (issue 23). */
const heroFirstField = () => within(document.getElementById("hero")!).getByRole("combobox", { name: "Month" });

describe("Header", () => {
  it("has the section buttons, Get Early Access, the menu toggle and the sign-in link", () => {
    const { banner } = renderAt("/");

    const nav = within(banner).getByRole("navigation", { name: "Sections" });
    expect(
      within(nav)
        .getAllByRole("button")
        .map((button) => button.textContent),
    ).toEqual(["Home", "Join Waitlist", "Features", "How It Works"]);
    expect(within(banner).getByRole("button", { name: "Get Early Access" })).toBeTruthy();
    expect(within(banner).getByRole("link", { name: "Homework Helper: home" }).getAttribute("href")).toBe("#/");
    expect(within(banner).getByRole("link", { name: "Login" }).getAttribute("href")).toBe("#/login");
  });

  it("turns blurred and darker once the page is scrolled more than 50 px", () => {
    const { banner } = renderAt("/");
    expect(banner.classList.contains("site-header--scrolled")).toBe(false);

    scrollTo(50);
    expect(banner.classList.contains("site-header--scrolled")).toBe(false);
    scrollTo(51);
    expect(banner.classList.contains("site-header--scrolled")).toBe(true);
    scrollTo(0);
    expect(banner.classList.contains("site-header--scrolled")).toBe(false);
  });

  it.each([
    ["Home", "hero"],
    ["Features", "features"],
    ["How It Works", "how-it-works"],
  ])("'%s' scrolls smoothly to #%s and moves focus to its heading", async (label, id) => {
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
    const { user, banner } = renderAt("/");

    await user.click(within(banner).getByRole("button", { name: label }));

    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled.mock.contexts[0]).toBe(document.getElementById(id));
    expect(scrolled).toHaveBeenCalledWith({ behavior: "smooth", block: "start" });
    expect(document.activeElement).toBe(document.getElementById(id)!.querySelector("h1, h2"));
  });

  it.each(["Join Waitlist", "Get Early Access"])(
    "'%s' scrolls to the hero and puts focus in its form's first field (the age question's month)",
    async (label) => {
      const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
      const { user, banner } = renderAt("/");

      await user.click(within(banner).getByRole("button", { name: label }));

      expect(scrolled).toHaveBeenCalledTimes(1);
      expect(scrolled.mock.contexts[0]).toBe(document.getElementById("hero"));
      expect(document.activeElement).toBe(heroFirstField());
    },
  );

  it("'Get Early Access' from another page goes home, then to the hero form's first field", async () => {
    const { user, banner } = renderAt("/privacy-policy");

    await user.click(within(banner).getByRole("button", { name: "Get Early Access" }));

    expect(window.location.hash).toBe("#/");
    expect(document.activeElement).toBe(heroFirstField());
  });

  it("jumps without animation for visitors who prefer reduced motion", async () => {
    preferReducedMotion();
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
    const { user, banner } = renderAt("/");

    await user.click(within(banner).getByRole("button", { name: "Features" }));

    expect(scrolled).toHaveBeenCalledWith({ behavior: "auto", block: "start" });
  });

  it("goes home first from another page, then scrolls to the section", async () => {
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
    const { user, banner } = renderAt("/privacy-policy");

    await user.click(within(banner).getByRole("button", { name: "How It Works" }));

    expect(window.location.hash).toBe("#/");
    expect(scrolled.mock.contexts[0]).toBe(document.getElementById("how-it-works"));
    expect(document.activeElement?.textContent).toBe("How It Works");
  });

  it("shows the brand's mark, the favicon's own, beside the name (drawn inline: no request)", () => {
    const { banner } = renderAt("/");
    const brand = within(banner).getByRole("link", { name: "Homework Helper: home" });

    const mark = brand.querySelector("svg");
    expect(mark?.getAttribute("aria-hidden")).toBe("true");
    expect(brand.querySelector("img")).toBeNull();
    const favicon = new DOMParser().parseFromString(faviconSvg, "image/svg+xml");
    const shapes = (root: ParentNode) =>
      [...root.querySelectorAll("rect, path")].map((shape) => [
        shape.tagName,
        shape.getAttribute("d"),
        shape.getAttribute("fill"),
        shape.getAttribute("rx"),
      ]);
    expect(shapes(mark!)).toEqual(shapes(favicon));
    expect(mark!.getAttribute("viewBox")).toBe(favicon.documentElement.getAttribute("viewBox"));
    expect(brand.textContent).toBe("Homework Helper");
  });

  it("makes Login a quieter button than Get Early Access", () => {
    const { banner } = renderAt("/");

    const login = within(banner).getByRole("link", { name: "Login" });
    expect(login.classList.contains("button")).toBe(true);
    expect(login.classList.contains("button--primary")).toBe(false);
    expect(within(banner).getByRole("button", { name: "Get Early Access" }).classList.contains("button--primary")).toBe(true);
  });
});

describe("Header: the small-screen menu", () => {
  it("opens and closes with its toggle", async () => {
    const { user, banner, toggle } = renderAt("/");

    expect(toggle().getAttribute("aria-expanded")).toBe("false");
    expect(toggle().getAttribute("aria-controls")).toBe("site-menu");
    expect(banner.querySelector("#site-menu")).toBeTruthy();

    await user.click(toggle());
    expect(toggle().getAttribute("aria-expanded")).toBe("true");
    expect(banner.classList.contains("site-header--open")).toBe(true);

    await user.click(toggle());
    expect(toggle().getAttribute("aria-expanded")).toBe("false");
    expect(banner.classList.contains("site-header--open")).toBe(false);
  });

  it("closes on Escape and gives focus back to the toggle", async () => {
    const { user, banner, toggle } = renderAt("/");

    await user.click(toggle());
    await user.tab();
    expect(document.activeElement?.textContent).toBe("Home");
    await user.keyboard("{Escape}");

    expect(toggle().getAttribute("aria-expanded")).toBe("false");
    expect(banner.classList.contains("site-header--open")).toBe(false);
    expect(document.activeElement).toBe(toggle());
  });

  it("closes on a tap outside the header, and stays open for a tap inside it", async () => {
    const { user, banner, toggle } = renderAt("/");
    await user.click(toggle());

    await user.pointer({ keys: "[MouseLeft]", target: within(banner).getByRole("navigation", { name: "Sections" }) });
    expect(toggle().getAttribute("aria-expanded")).toBe("true");

    await user.pointer({ keys: "[MouseLeft]", target: screen.getByRole("heading", { level: 1 }) });
    expect(toggle().getAttribute("aria-expanded")).toBe("false");
    expect(banner.classList.contains("site-header--open")).toBe(false);
  });

  it("closes when a section button is used", async () => {
    const { user, banner, toggle } = renderAt("/");

    await user.click(toggle());
    await user.click(within(banner).getByRole("button", { name: "Features" }));

    expect(toggle().getAttribute("aria-expanded")).toBe("false");
  });

  it("closes on navigation", async () => {
    const { user, banner, toggle } = renderAt("/");

    await user.click(toggle());
    await user.click(within(banner).getByRole("link", { name: "Login" }));

    expect(window.location.hash).toBe("#/login");
    expect(toggle().getAttribute("aria-expanded")).toBe("false");
  });

  it("closes after Logout, with focus back on the toggle", async () => {
    const signOut = vi.fn(async () => {
      // What auth-js does first with scope "local"; the header follows the stored session.
      window.localStorage.removeItem("hwh-auth");
      window.dispatchEvent(new StorageEvent("storage", { key: "hwh-auth" }));
      return { error: null };
    });
    auth.client = { signOut };
    signIn("a-rather-long-address-for-a-phone@example.com");
    const { user, banner, toggle } = renderAt("/");

    await user.click(toggle());
    await user.click(within(banner).getByRole("button", { name: "Logout" }));

    expect(signOut).toHaveBeenCalledWith({ scope: "local" });
    expect(toggle().getAttribute("aria-expanded")).toBe("false");
    expect(banner.classList.contains("site-header--open")).toBe(false);
    expect(within(banner).getByRole("link", { name: "Login" })).toBeTruthy();
    expect(document.activeElement).toBe(toggle());
  });
});

/** The home page prerendered as the build does it, then hydrated (see hydration.test.tsx). */
async function prerenderedThenHydrated(beforeHydrating: (container: HTMLElement) => void = () => {}) {
  const html = renderToString(
    <StrictMode>
      <App ssrPath="/" />
    </StrictMode>,
  );
  const container = document.createElement("div");
  container.innerHTML = html;
  document.body.append(container);
  beforeHydrating(container);
  const recoverableErrors: unknown[] = [];
  let root!: Root;
  await act(async () => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <App />
      </StrictMode>,
      { onRecoverableError: (error) => recoverableErrors.push(error) },
    );
  });
  hydrated = { root, container };
  return { container, recoverableErrors };
}

describe("Header before the app runs (prerendered, no script)", () => {
  function prerenderedHeader(): HTMLElement {
    const container = document.createElement("div");
    container.innerHTML = renderToString(<App ssrPath="/" />);
    return container.querySelector("header")!;
  }

  it("opens its menu with a checkbox the toggle labels, which the stylesheet's :checked rule reads", () => {
    const header = prerenderedHeader();

    const checkbox = within(header).getByRole("checkbox", { name: "Menu" });
    expect(checkbox.getAttribute("aria-controls")).toBe("site-menu");
    // The toggle's label comes right after it and the menu after that (styles.css: + and ~).
    const label = header.querySelector(`label[for="${checkbox.id}"]`)!;
    expect(checkbox.nextElementSibling).toBe(label);
    expect(label.classList.contains("site-header__toggle")).toBe(true);
    expect(label.nextElementSibling?.id).toBe("site-menu");
    expect(within(header).queryByRole("button", { name: "Menu" })).toBeNull();
  });

  it("links its section entries to the home page's anchors, which the browser follows by itself", () => {
    const header = prerenderedHeader();

    const nav = within(header).getByRole("navigation", { name: "Sections" });
    expect(
      within(nav)
        .getAllByRole("link")
        .map((link) => [link.textContent, link.getAttribute("href")]),
    ).toEqual([
      ["Home", "#hero"],
      ["Join Waitlist", "#hero"],
      ["Features", "#features"],
      ["How It Works", "#how-it-works"],
    ]);
    expect(within(header).getByRole("link", { name: "Get Early Access" }).getAttribute("href")).toBe("#hero");
  });

  it("becomes the real toggle and section buttons once hydrated, keeping a menu opened meanwhile open", async () => {
    const { container, recoverableErrors } = await prerenderedThenHydrated((page) => {
      // The visitor opened the menu before the app ran.
      page.querySelector<HTMLInputElement>('input[type="checkbox"]')!.checked = true;
    });

    expect(recoverableErrors).toEqual([]);
    const header = container.querySelector("header")!;
    expect(within(header).queryByRole("checkbox")).toBeNull();
    const toggle = within(header).getByRole("button", { name: "Menu" });
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(header.classList.contains("site-header--open")).toBe(true);
    const nav = within(header).getByRole("navigation", { name: "Sections" });
    expect(within(nav).getAllByRole("button")).toHaveLength(4);
    expect(within(nav).queryAllByRole("link")).toEqual([]);
  });
});

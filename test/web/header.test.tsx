/**
 * The shared header (spec §2): section buttons that scroll the home page (from other pages
 * too), the style change past 50 px of scroll, and the small-screen menu.
 */
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { App } from "../../web/src/App";
import { preferReducedMotion } from "./helpers";

// The sign-in library is not what these tests are about: it never finishes loading here.
vi.mock("../../web/src/auth/client", () => import("./idle-auth-client"));

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

describe("Header", () => {
  it("has the section buttons, Get Early Access, the menu toggle and the sign-in link", () => {
    const { banner } = renderAt("/");

    const nav = within(banner).getByRole("navigation", { name: "Sections" });
    expect(within(nav).getAllByRole("button").map((button) => button.textContent)).toEqual([
      "Home",
      "Join Waitlist",
      "Features",
      "How It Works",
    ]);
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
    ["Join Waitlist", "hero"],
    ["Features", "features"],
    ["How It Works", "how-it-works"],
    ["Get Early Access", "hero"],
  ])("'%s' scrolls smoothly to #%s and moves focus to its heading", async (label, id) => {
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
    const { user, banner } = renderAt("/");

    await user.click(within(banner).getByRole("button", { name: label }));

    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled.mock.contexts[0]).toBe(document.getElementById(id));
    expect(scrolled).toHaveBeenCalledWith({ behavior: "smooth", block: "start" });
    expect(document.activeElement).toBe(document.getElementById(id)!.querySelector("h1, h2"));
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

  it("opens and closes the small-screen menu with its toggle", async () => {
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

  it("closes the menu on Escape and gives focus back to the toggle", async () => {
    const { user, banner, toggle } = renderAt("/");

    await user.click(toggle());
    await user.tab();
    expect(document.activeElement?.textContent).toBe("Home");
    await user.keyboard("{Escape}");

    expect(toggle().getAttribute("aria-expanded")).toBe("false");
    expect(banner.classList.contains("site-header--open")).toBe(false);
    expect(document.activeElement).toBe(toggle());
  });

  it("closes the menu when a section button is used", async () => {
    const { user, banner, toggle } = renderAt("/");

    await user.click(toggle());
    await user.click(within(banner).getByRole("button", { name: "Features" }));

    expect(toggle().getAttribute("aria-expanded")).toBe("false");
  });

  it("closes the menu on navigation", async () => {
    const { user, banner, toggle } = renderAt("/");

    await user.click(toggle());
    await user.click(within(banner).getByRole("link", { name: "Login" }));

    expect(window.location.hash).toBe("#/login");
    expect(toggle().getAttribute("aria-expanded")).toBe("false");
  });
});

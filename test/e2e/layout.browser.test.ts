/**
 * The site's layout and navigation in headless Chromium, where only a browser can tell: section
 * links (/#contact), the waitlist buttons' focus on the hero form's first field, the phone menu (a
 * long signed-in address at 320 and 360 px, a tap outside, Logout, and without JavaScript), the
 * browser's text size at 200% on a phone (nothing cut off, no sideways scrolling, a compact
 * header), the skip link, the designer's details (a quieter Login, the logo mark, three subject
 * columns, the contact card's padding, the centred CTA note) and the share preview's tags and
 * images, with axe-core finding nothing in these states.
 *
 * Every page a test opens is checked after it: no uncaught error, no request to another origin,
 * no CSP violation, no console error or warning.
 */
import { randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";
import { SECTION_IDS } from "../../web/src/routes";
import { axeViolations, cspViolations, describeViolations, useBrowser } from "./browser";
import { latestMailId, readCode } from "./support";

const baseUrl = inject("baseUrl");
const { newContext, newTab, openTab, watches } = useBrowser(baseUrl);

afterEach(() => {
  for (const watch of watches()) {
    expect(watch.errors, "uncaught errors in the page").toEqual([]);
    expect(watch.foreignRequests, "requests to other origins").toEqual([]);
    expect(cspViolations(watch), "Content-Security-Policy violations").toEqual([]);
    expect(watch.console, "console errors and warnings").toEqual([]);
  }
});

// ---------------------------------------------------------------------------------------------
// Helpers

const DESKTOP = { width: 1280, height: 720 };
const PHONE = { width: 375, height: 667 };
/** The browser's text size at 200%: the default font size (16 px) doubled, as the setting does. */
const LARGE_TEXT = { standard: 32, fixed: 26 };

const hashOf = (page: Page) => new URL(page.url()).hash;

async function until(page: Page, expression: string, message: string, timeout = 10_000): Promise<void> {
  await expect.poll(() => page.evaluate<boolean>(expression), { timeout, interval: 50, message }).toBe(true);
}

/** Waits until the app runs (main.tsx marks #root data-started). */
async function started(page: Page): Promise<void> {
  await page.locator("#root[data-started]").waitFor({ state: "attached" });
}

async function openStarted(ctx: BrowserContext, hashPath: string): Promise<Page> {
  const { page } = await openTab(ctx, hashPath);
  await started(page);
  return page;
}

/**
 * A context whose default font size is doubled through the DevTools protocol: what the browser's
 * text size setting changes, so rem-based sizes and media queries grow as they do for a visitor
 * (page zoom would instead shrink the viewport). Applied to each page before it loads.
 */
async function largeTextTab(ctx: BrowserContext): Promise<Page> {
  const { page } = await newTab(ctx);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Page.setFontSizes", { fontSizes: LARGE_TEXT });
  return page;
}

/** A short description of the focused element: "input[type=email] in #hero", "h2#contact-title". */
const focused = (page: Page) =>
  page.evaluate<string>(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    const tag = el.tagName.toLowerCase();
    const where = el.closest("section[id]") ? " in #" + el.closest("section[id]").id : "";
    if (tag === "input") return "input[type=" + el.type + "]" + where;
    return tag + (el.id ? "#" + el.id : "[" + (el.getAttribute("aria-label") || el.textContent.trim()) + "]") + where;
  })()`);

/**
 * True when section `id` is where a section link brings it: its top right under the sticky
 * header (its scroll margin), or, for a section too near the end of the page to get there, the
 * page scrolled to its end with the section in view; and its heading focused.
 */
function sectionShown(id: string): string {
  return `(() => {
    const section = document.getElementById(${JSON.stringify(id)});
    const header = document.querySelector("header");
    if (!section || !header) return false;
    const top = section.getBoundingClientRect().top;
    const headerBottom = header.getBoundingClientRect().bottom;
    const atEnd = Math.ceil(scrollY + innerHeight) >= document.documentElement.scrollHeight - 1;
    const placed = Math.abs(top - headerBottom) <= 2 || (atEnd && top >= headerBottom - 2 && top < innerHeight);
    return placed && document.activeElement === document.getElementById(${JSON.stringify(`${id}-title`)});
  })()`;
}

/** Whether the element `selector` names (the first) is entirely inside the viewport. */
const fullyVisible = (page: Page, selector: string) =>
  page.evaluate<{ inside: boolean; box: string }>(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) return { inside: false, box: "missing" };
    const box = el.getBoundingClientRect();
    const inside = box.width > 0 && box.height > 0 && box.left >= -0.5 && box.top >= -0.5 &&
      box.right <= document.documentElement.clientWidth + 0.5 && box.bottom <= innerHeight + 0.5;
    return { inside, box: [box.left, box.top, box.right, box.bottom].map(Math.round).join(",") };
  })()`);

/**
 * What is cut off or sticks out sideways on the page as it is laid out now: elements reaching
 * past the viewport's left or right edge, and elements that clip their own content sideways
 * (overflow other than visible, or an ellipsis). Skips what is hidden on purpose: the
 * visually-hidden texts, the honeypots, and what is not rendered.
 */
const LAYOUT_PROBLEMS = `(() => {
  const width = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\\s+/).join(".") : "");
  const problems = [];
  if (document.documentElement.scrollWidth > width) problems.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + width);
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest(".visually-hidden, .honeypot, noscript, template, .skip-link")) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || !el.checkVisibility()) continue;
    if (box.right > width + 1 || box.left < -1) problems.push(name(el) + " reaches " + Math.round(box.left) + ".." + Math.round(box.right) + " of " + width);
    const style = getComputedStyle(el);
    const clips = style.overflowX !== "visible" || style.textOverflow === "ellipsis";
    if (clips && !["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName) && el.scrollWidth > el.clientWidth + 1) {
      problems.push(name(el) + " cuts its content: " + el.scrollWidth + " > " + el.clientWidth);
    }
  }
  return problems.slice(0, 12);
})()`;

const layoutProblems = (page: Page) => page.evaluate<string[]>(LAYOUT_PROBLEMS);

async function expectNoAxeViolations(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, `axe-core on ${what}:\n${describeViolations(violations)}`).toEqual([]);
}

/** A new address of exactly 40 characters (the domain is reserved for tests). */
function fortyCharacterEmail(): string {
  const domain = "@example.test";
  return `e2e-layout-${randomBytes(16).toString("hex")}`.slice(0, 40 - domain.length) + domain;
}

/**
 * Signs `email` in through the API, as the login page does, and stores the session in every page
 * the context opens, where the site's auth client keeps it: the page opens signed in.
 */
async function signedIn(ctx: BrowserContext, email: string): Promise<void> {
  const after = await latestMailId(baseUrl);
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}/auth/v1${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  expect((await post("/otp", { email, create_user: true })).status).toBe(200);
  const token = await readCode(baseUrl, email, { after });
  const verified = await post("/verify", { email, token, type: "email" });
  expect(verified.status).toBe(200);
  const session = JSON.stringify(await verified.json());
  await ctx.addInitScript(`localStorage.setItem("hwh-auth", ${JSON.stringify(session)})`);
}

// ---------------------------------------------------------------------------------------------

describe("section links", () => {
  it.each(Object.values(SECTION_IDS))(
    "/#%s opens the home page at that section, its heading focused; the address becomes #/",
    async (id) => {
      const ctx = await newContext({ viewport: DESKTOP });
      const { page } = await openTab(ctx, id);

      await until(page, sectionShown(id), `#${id} shown under the header with its heading focused (focus: ${await focused(page)})`);
      expect(hashOf(page)).toBe("#/");
    },
  );

  it("follows section links from another page and on the home page", async () => {
    const ctx = await newContext({ viewport: PHONE });
    const page = await openStarted(ctx, "/privacy-policy");

    await page.goto(`${baseUrl}/#contact`);
    await until(page, sectionShown(SECTION_IDS.contact), "#contact shown after coming from the privacy policy");
    expect(hashOf(page)).toBe("#/");
    // The section link's entry was replaced by the home page's: Back is the privacy policy.
    await page.goBack();
    await expect.poll(() => hashOf(page)).toBe("#/privacy-policy");

    await page.goto(`${baseUrl}/#/`);
    await page.evaluate(`location.hash = "#how-it-works"`);
    await until(page, sectionShown(SECTION_IDS.howItWorks), "#how-it-works shown from the home page");
    expect(hashOf(page)).toBe("#/");
  });

  it("still sends an address the site does not know home, to the top", async () => {
    const ctx = await newContext({ viewport: DESKTOP });
    const page = await openStarted(ctx, "pricing");

    await expect.poll(() => hashOf(page)).toBe("#/");
    expect(await page.evaluate<number>("scrollY")).toBe(0);
  });
});

/** The hero form's first field, where the waitlist buttons put focus: the age question's month (issue 23), before the e-mail. */
const HERO_FIRST_FIELD_SELECTOR = "#hero select[name=birth_month]";
const HERO_FIRST_FIELD = /^select\[Month\] in #hero$/;

describe("the waitlist buttons", () => {
  it("'Get Early Access' and 'Join Waitlist' bring the hero form's first field (the age question's month) into view with focus in it (desktop)", async () => {
    const ctx = await newContext({ viewport: DESKTOP });
    const page = await openStarted(ctx, "/");
    const banner = page.getByRole("banner");

    for (const button of [
      banner.getByRole("button", { name: "Get Early Access" }),
      banner.getByRole("button", { name: "Join Waitlist" }),
    ]) {
      await page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)");
      await button.click();
      await expect.poll(() => focused(page)).toMatch(HERO_FIRST_FIELD);
      await expect.poll(async () => (await fullyVisible(page, HERO_FIRST_FIELD_SELECTOR)).inside).toBe(true);
    }
  });

  it("does the same from the phone menu, which closes", async () => {
    const ctx = await newContext({ viewport: PHONE });
    const page = await openStarted(ctx, "/");
    const banner = page.getByRole("banner");
    await page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)");

    await banner.getByRole("button", { name: "Menu" }).click();
    await banner.getByRole("navigation", { name: "Sections" }).getByRole("button", { name: "Join Waitlist" }).click();

    expect(await banner.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => focused(page)).toMatch(HERO_FIRST_FIELD);
    await expect.poll(async () => (await fullyVisible(page, HERO_FIRST_FIELD_SELECTOR)).inside).toBe(true);
  });

  it("brings the field into view even where the hero is taller than the screen (text at 200%)", async () => {
    const ctx = await newContext({ viewport: { width: 360, height: 640 } });
    const page = await largeTextTab(ctx);
    await page.goto(`${baseUrl}/#/`);
    await started(page);

    await page.getByRole("banner").getByRole("button", { name: "Menu" }).click();
    await page.getByRole("banner").getByRole("button", { name: "Get Early Access" }).click();

    await expect.poll(() => focused(page)).toMatch(HERO_FIRST_FIELD);
    await expect.poll(async () => (await fullyVisible(page, HERO_FIRST_FIELD_SELECTOR)).inside).toBe(true);
    const header = await page.evaluate<number>(`document.querySelector("header").getBoundingClientRect().bottom`);
    expect(
      await page.evaluate<number>(`document.querySelector("${HERO_FIRST_FIELD_SELECTOR}").getBoundingClientRect().top`),
    ).toBeGreaterThanOrEqual(header);
  });
});

describe("the phone menu", () => {
  it.each([320, 360])("at %i px with a 40-character address signed in, shows everything in full", async (width) => {
    const ctx = await newContext({ viewport: { width, height: 640 } });
    const email = fortyCharacterEmail();
    expect(email).toHaveLength(40);
    await signedIn(ctx, email);
    const page = await openStarted(ctx, "/");
    const banner = page.getByRole("banner");
    await banner.getByText(email).waitFor({ state: "attached" });

    await banner.getByRole("button", { name: "Menu" }).click();
    await banner.getByRole("button", { name: "Logout" }).waitFor();

    for (const selector of ["#site-menu .site-header__cta", "#site-menu .auth-status__logout", "#site-menu .auth-status__email"]) {
      const { inside, box } = await fullyVisible(page, selector);
      expect(inside, `${selector} at ${box} in ${width} x 640`).toBe(true);
    }
    expect(await layoutProblems(page)).toEqual([]);
    await expectNoAxeViolations(page, `the open phone menu, signed in, at ${width} px`);
  });

  it.each([320, 360])(
    "at %i px signed in (a 40-character address), 'My place' is in the header's row, outside the closed menu, and leads there (issue 22)",
    async (width) => {
      const ctx = await newContext({ viewport: { width, height: 640 } });
      await signedIn(ctx, fortyCharacterEmail());
      const page = await openStarted(ctx, "/");
      const banner = page.getByRole("banner");
      const myPlace = banner.getByRole("link", { name: "My place", exact: true });
      await myPlace.waitFor();

      expect(await banner.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("false");
      expect(await myPlace.getAttribute("class")).toBe("site-header__me");
      expect(await page.evaluate<boolean>(`!document.querySelector(".site-header__me").closest("#site-menu")`)).toBe(true);
      const { inside, box } = await fullyVisible(page, ".site-header__me");
      expect(inside, `My place at ${box} in ${width} x 640`).toBe(true);
      // One row: the brand, My place and the toggle side by side, the header no taller than before.
      const row = await page.evaluate<{ height: number; middles: number[] }>(`(() => {
        const middle = (el) => { const box = el.getBoundingClientRect(); return box.top + box.height / 2; };
        return {
          height: document.querySelector("header").getBoundingClientRect().height,
          middles: [".site-header__brand", ".site-header__me", ".site-header__toggle"].map((s) => middle(document.querySelector(s))),
        };
      })()`);
      expect(Math.max(...row.middles) - Math.min(...row.middles), `middles ${row.middles}`).toBeLessThanOrEqual(4);
      expect(row.height).toBeLessThanOrEqual(72);
      expect(await layoutProblems(page)).toEqual([]);
      await expectNoAxeViolations(page, `the signed-in phone header at ${width} px`);

      await myPlace.click();
      await expect.poll(() => hashOf(page)).toBe("#/me");
      await page.getByRole("main").getByRole("heading", { level: 1, name: "My place" }).waitFor();
    },
  );

  it("keeps 'My place' out of the full header, where the signed-in address leads there (1280 px)", async () => {
    const ctx = await newContext({ viewport: DESKTOP });
    const email = fortyCharacterEmail();
    await signedIn(ctx, email);
    const page = await openStarted(ctx, "/");
    const banner = page.getByRole("banner");
    await banner.getByText(email).waitFor();
    const address = banner.getByRole("link", { name: `My place: signed in as ${email}` });
    expect(await address.isVisible()).toBe(true);
    expect(await address.getAttribute("href")).toBe("#/me");
    expect(await banner.getByRole("link", { name: "My place", exact: true }).count()).toBe(0);
  });

  it("closes on a tap outside it", async () => {
    const ctx = await newContext({ viewport: PHONE, hasTouch: true });
    const page = await openStarted(ctx, "/");
    const toggle = page.getByRole("banner").getByRole("button", { name: "Menu" });
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");

    // Just under the open menu (the header pushes the page down): the hero's empty top.
    const header = (await page.getByRole("banner").boundingBox())!;
    expect(header.y + header.height + 20).toBeLessThan(PHONE.height);
    await page.touchscreen.tap(PHONE.width / 2, header.y + header.height + 20);

    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.locator("#site-menu").isVisible()).toBe(false);
  });

  it("closes after Logout, with focus on its toggle and Login back in the menu", async () => {
    const ctx = await newContext({ viewport: PHONE });
    await signedIn(ctx, fortyCharacterEmail());
    const page = await openStarted(ctx, "/");
    const banner = page.getByRole("banner");
    const toggle = banner.getByRole("button", { name: "Menu" });

    await toggle.click();
    await banner.getByRole("button", { name: "Logout" }).click();

    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => focused(page)).toBe("button[Menu]");
    // In the closed menu, hidden: role queries skip it unless asked.
    await banner.getByRole("link", { name: "Login", includeHidden: true }).waitFor({ state: "attached" });
    expect(await page.evaluate<string | null>(`localStorage.getItem("hwh-auth")`)).toBeNull();
  });
});

describe("text at 200% on a phone", () => {
  it.each([360, 320])("at %i px nothing is cut off, nothing scrolls sideways, and the header stays one compact row", async (width) => {
    const viewport = { width, height: 640 };
    const ctx = await newContext({ viewport });
    await signedIn(ctx, fortyCharacterEmail());
    const page = await largeTextTab(ctx);
    await page.goto(`${baseUrl}/#/`);
    await started(page);
    // The emulation is what makes this test mean something.
    expect(await page.evaluate<string>("getComputedStyle(document.documentElement).fontSize")).toBe("32px");

    expect(await layoutProblems(page)).toEqual([]);

    // Compact: at most a quarter of the screen's height, with the brand and the toggle on one row.
    const header = await page.evaluate<{ height: number; brandMiddle: number; toggleMiddle: number }>(`(() => {
      const middle = (el) => { const box = el.getBoundingClientRect(); return box.top + box.height / 2; };
      return {
        height: document.querySelector("header").getBoundingClientRect().height,
        brandMiddle: middle(document.querySelector(".site-header__brand")),
        toggleMiddle: middle(document.querySelector(".site-header__toggle")),
      };
    })()`);
    expect(header.height, "header height").toBeLessThanOrEqual(viewport.height / 4);
    expect(Math.abs(header.brandMiddle - header.toggleMiddle), "brand and toggle on one row").toBeLessThanOrEqual(4);

    // What used to be cut: the headline, the main button's label, the stats, the subject cards.
    const cut = await page.evaluate<string[]>(`[
      ...document.querySelectorAll("#hero h1, #hero button[type=submit], .stats__item, .stats dd, #subjects .tile, #subjects .tile h3, #subjects .tile p")
    ].filter((el) => {
      const box = el.getBoundingClientRect();
      return box.right > document.documentElement.clientWidth + 1 || el.scrollWidth > el.clientWidth + 1;
    }).map((el) => el.tagName.toLowerCase() + "." + el.className + ": " + el.textContent.trim().slice(0, 40))`);
    expect(cut).toEqual([]);

    // The open menu is taller than the screen: it scrolls, so its last button can be reached.
    await page.getByRole("banner").getByRole("button", { name: "Menu" }).click();
    expect(await layoutProblems(page)).toEqual([]);
    const logout = page.getByRole("banner").getByRole("button", { name: "Logout" });
    await logout.scrollIntoViewIfNeeded();
    const { inside, box } = await fullyVisible(page, "#site-menu .auth-status__logout");
    expect(inside, `Logout at ${box}`).toBe(true);
    if (width === 360) await expectNoAxeViolations(page, "the open menu with text at 200%");
  });
});

describe("200% page zoom on a phone (a 360 px phone's 180 CSS px)", () => {
  const ZOOMED = { width: 180, height: 370 };

  /** The open menu's box, the screen's height, and where the Login link is. */
  const menuBox = (page: Page) =>
    page.evaluate<{ menuBottom: number; toggleBottom: number; menuTop: number; screen: number }>(`(() => {
      const menu = document.querySelector("#site-menu").getBoundingClientRect();
      return { menuTop: menu.top, menuBottom: menu.bottom, screen: innerHeight,
        toggleBottom: document.querySelector(".site-header__toggle").getBoundingClientRect().bottom };
    })()`);

  it.each([true, false])(
    "the open menu scrolls within the screen and Login can be reached and followed (JavaScript %s)",
    async (javaScriptEnabled) => {
      const ctx = await newContext({ viewport: ZOOMED, javaScriptEnabled });
      const { page } = await openTab(ctx, "/");
      if (javaScriptEnabled) await started(page);
      const banner = page.getByRole("banner");
      await banner.locator(".site-header__toggle").click();
      // Without JavaScript a note sits above the header: the header sticks once it is scrolled by.
      if (!javaScriptEnabled) await page.evaluate(`scrollTo(0, document.querySelector("header").offsetTop)`);

      // The toggle stays on the first row, and the menu ends within the screen.
      const box = await menuBox(page);
      expect(box.menuTop, "the menu starts under the toggle's row").toBeGreaterThanOrEqual(box.toggleBottom);
      expect(box.menuBottom, `the menu's bottom (${JSON.stringify(box)})`).toBeLessThanOrEqual(box.screen + 0.5);
      expect(await layoutProblems(page)).toEqual([]);

      const loginLink = banner.getByRole("link", { name: "Login" });
      await loginLink.scrollIntoViewIfNeeded();
      const { inside, box: where } = await fullyVisible(page, "#site-menu .auth-status__login");
      expect(inside, `Login at ${where}`).toBe(true);
      await loginLink.click();
      await expect.poll(() => hashOf(page)).toBe("#/login");
    },
  );
});

describe("skip link", () => {
  it("is the first Tab stop, shows when focused and moves focus to the main content, on any page", async () => {
    const ctx = await newContext({ viewport: DESKTOP });
    for (const path of ["/", "/privacy-policy"]) {
      const page = await openStarted(ctx, path);
      await page.keyboard.press("Tab");
      expect(await focused(page)).toBe("a[Skip to content]");
      const { inside, box } = await fullyVisible(page, ".skip-link");
      expect(inside, `the focused skip link at ${box}`).toBe(true);
      await expectNoAxeViolations(page, `${path} with the skip link focused`);

      await page.keyboard.press("Enter");
      expect(await focused(page)).toBe("main#main");
      expect(hashOf(page)).toBe(`#${path}`);
      // Out of sight again once it has lost focus.
      expect((await fullyVisible(page, ".skip-link")).inside).toBe(false);
      await page.close();
    }
  });
});

describe("without JavaScript", () => {
  it("the phone menu opens, and its links take the visitor to the sections", async () => {
    const ctx = await newContext({ viewport: PHONE, javaScriptEnabled: false });
    const { page } = await openTab(ctx, "/");
    const banner = page.getByRole("banner");
    const toggle = banner.getByRole("checkbox", { name: "Menu" });
    const nav = banner.getByRole("navigation", { name: "Sections" });

    expect(await banner.locator("label.site-header__toggle").isVisible()).toBe(true);
    expect(await nav.isVisible()).toBe(false);
    await banner.locator("label.site-header__toggle").click();
    expect(await toggle.isChecked()).toBe(true);

    const entries = [
      ...(await nav.getByRole("link").all()),
      banner.getByRole("link", { name: "Get Early Access" }),
      banner.getByRole("link", { name: "Login" }),
    ];
    expect(entries).toHaveLength(6);
    for (const entry of entries) {
      const label = (await entry.textContent()) ?? "";
      expect(await entry.isVisible(), label).toBe(true);
      const box = (await entry.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height, `${label} on screen`).toBe(true);
    }
    expect(await page.locator("[style]").count(), "inline style attributes (the CSP allows none)").toBe(0);

    // A section link is followed by the browser itself.
    await nav.getByRole("link", { name: "Features" }).click();
    await expect.poll(() => hashOf(page)).toBe("#features");
    const features = (await page.locator("#features").boundingBox())!;
    expect(features.y).toBeLessThan(PHONE.height);
    expect(features.y + features.height).toBeGreaterThan(0);

    // And closes again with the same toggle.
    await banner.locator("label.site-header__toggle").click();
    expect(await nav.isVisible()).toBe(false);
  });
});

describe("the designer's details", () => {
  it("Login is a quieter button than Get Early Access; the logo mark sits beside the wordmark", async () => {
    const ctx = await newContext({ viewport: DESKTOP });
    const page = await openStarted(ctx, "/");
    const look = (selector: string) =>
      page.evaluate<{ background: string; border: string }>(
        `(() => { const style = getComputedStyle(document.querySelector(${JSON.stringify(selector)})); return { background: style.backgroundColor, border: style.borderTopColor }; })()`,
      );
    const cta = await look(".site-header__cta");
    const login = await look(".auth-status__login");
    expect(cta.background).toBe("rgb(91, 75, 240)");
    expect(login.background).not.toBe(cta.background);
    expect(login.border).not.toBe(login.background);

    const brand = await page.evaluate<{ mark: number[]; text: number[]; images: number }>(`(() => {
      const link = document.querySelector(".site-header__brand");
      const mark = link.querySelector("svg").getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(link.lastChild);
      const text = range.getBoundingClientRect();
      return { mark: [mark.left, mark.right, mark.top + mark.height / 2, mark.width], text: [text.left, text.top + text.height / 2], images: link.querySelectorAll("img").length };
    })()`);
    const [markLeft, markRight, markMiddle, markWidth] = brand.mark as [number, number, number, number];
    const [textLeft, textMiddle] = brand.text as [number, number];
    expect(markWidth).toBeGreaterThanOrEqual(24);
    expect(markLeft).toBeLessThan(textLeft);
    expect(textLeft - markRight).toBeLessThanOrEqual(16);
    expect(Math.abs(markMiddle - textMiddle)).toBeLessThanOrEqual(3);
    expect(brand.images).toBe(0);
  });

  it("the subjects take three columns on a wide screen (two on a tablet)", async () => {
    const ctx = await newContext({ viewport: DESKTOP });
    const page = await openStarted(ctx, "/");
    const columns = () =>
      page.evaluate<number>(
        `new Set([...document.querySelectorAll("#subjects .tile")].map((tile) => Math.round(tile.getBoundingClientRect().left))).size`,
      );
    expect(await columns()).toBe(3);
    await page.setViewportSize({ width: 768, height: 1024 });
    expect(await columns()).toBe(2);
  });

  it("the contact card's padding is as deep under the button as above the first field; the CTA note is centred", async () => {
    const ctx = await newContext({ viewport: DESKTOP });
    const page = await openStarted(ctx, "/");

    const card = await page.evaluate<{ top: number; bottom: number }>(`(() => {
      const card = document.querySelector(".contact__card").getBoundingClientRect();
      const shown = [...document.querySelectorAll(".contact__card form > *")].filter((el) => el.getBoundingClientRect().height > 0 && !el.classList.contains("honeypot"));
      return { top: shown[0].getBoundingClientRect().top - card.top, bottom: card.bottom - shown.at(-1).getBoundingClientRect().bottom };
    })()`);
    expect(Math.abs(card.top - card.bottom), `padding above ${card.top}, below ${card.bottom}`).toBeLessThanOrEqual(2);

    const note = await page.evaluate<{ align: string; offset: number }>(`(() => {
      const note = document.querySelector("#early-access .waitlist__note");
      const form = document.querySelector("#early-access form").getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(note);
      const text = range.getBoundingClientRect();
      return { align: getComputedStyle(note).textAlign, offset: (text.left + text.right) / 2 - (form.left + form.right) / 2 };
    })()`);
    expect(note.align).toBe("center");
    expect(Math.abs(note.offset)).toBeLessThanOrEqual(2);
  });
});

describe("sharing", () => {
  it("names the page's absolute address and preview image, its theme colour and its touch icon", async () => {
    const ctx = await newContext({ viewport: DESKTOP });
    const page = await openStarted(ctx, "/");
    const head = await page.evaluate<Record<string, string | null>>(`(() => {
      const meta = (selector) => document.querySelector(selector)?.getAttribute("content") ?? null;
      return {
        canonical: document.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? null,
        touchIcon: document.querySelector('link[rel="apple-touch-icon"]')?.getAttribute("href") ?? null,
        ogUrl: meta('meta[property="og:url"]'),
        ogImage: meta('meta[property="og:image"]'),
        ogType: meta('meta[property="og:type"]'),
        ogTitle: meta('meta[property="og:title"]'),
        ogDescription: meta('meta[property="og:description"]'),
        twitterCard: meta('meta[name="twitter:card"]'),
        twitterImage: meta('meta[name="twitter:image"]'),
        themeColor: meta('meta[name="theme-color"]'),
        background: getComputedStyle(document.documentElement).getPropertyValue("--bg").trim(),
      };
    })()`);
    expect(head).toMatchObject({
      canonical: `${baseUrl}/`,
      ogUrl: `${baseUrl}/`,
      ogImage: `${baseUrl}/og-image.png`,
      twitterImage: `${baseUrl}/og-image.png`,
      ogType: "website",
      ogTitle: "Homework Helper: coming soon",
      twitterCard: "summary_large_image",
      touchIcon: "/apple-touch-icon.png",
    });
    expect(head.ogDescription?.length).toBeGreaterThan(20);
    expect(head.themeColor).toBe(head.background);

    for (const [url, width, height] of [
      [head.ogImage!, 1200, 630],
      [`${baseUrl}${head.touchIcon}`, 180, 180],
    ] as const) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("content-type"), url).toBe("image/png");
      const png = Buffer.from(await response.arrayBuffer());
      expect(png.subarray(12, 16).toString("latin1"), url).toBe("IHDR");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], url).toEqual([width, height]);
    }
  });
});

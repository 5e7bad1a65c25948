/**
 * The site's routes (spec §2): the four pages, unknown paths sent home in place of the history
 * entry, section links (/#contact), what a route change does (top of the page, focus on the new
 * page's heading, the tab's title), the skip link, the home page's sections and claims, and the
 * page shell's share preview.
 */
import { StrictMode } from "react";
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { LOGIN_URL } from "../../web/src/admin/session";
import { App } from "../../web/src/App";
import { CONTACT_FORM } from "@shared/forms";
import { KEPT_AFTER_ERASURE } from "@shared/erasure";
import { PUBLISHED_RETENTION_DAYS } from "@shared/retention";
import { ATTRIBUTION_FIELDS } from "@shared/waitlist";
import { brand, documentTitles } from "../../web/src/content";
import { CONSOLE_PATH, loginHref, returnPathOfHash, routeOfHash, SECTION_IDS } from "../../web/src/routes";
import indexHtml from "../../web/index.html?raw";

vi.mock("../../web/src/auth/client", () => import("./idle-auth-client"));

function renderAt(path: string) {
  window.history.replaceState(null, "", `/#${path}`);
  const user = userEvent.setup();
  render(<App />);
  return { user };
}

const heading = (name: string) => screen.getByRole("heading", { level: 1, name });

describe("routes", () => {
  it("shows the home page at / and for an empty hash", () => {
    window.history.replaceState(null, "", "/");
    render(<App />);
    expect(heading("Your Homework, Solved in Seconds")).toBeTruthy();
  });

  it.each([
    ["/privacy-policy", "Privacy Policy"],
    ["/terms-of-service", "Terms of Service"],
    ["/login", "Sign In"],
  ])("shows %s", (path, title) => {
    renderAt(path);
    expect(heading(title)).toBeTruthy();
  });

  it("sends an unknown path home, replacing its history entry", () => {
    window.history.replaceState(null, "", "/#/somewhere/else");
    const entries = window.history.length;

    render(<App />);

    expect(window.location.hash).toBe("#/");
    expect(window.history.length).toBe(entries);
    expect(heading("Your Homework, Solved in Seconds")).toBeTruthy();
  });

  it("leaves focus and scroll alone on the first load (StrictMode's second effect run included)", () => {
    const scrolled = vi.spyOn(window, "scrollTo");
    window.history.replaceState(null, "", "/#/privacy-policy");
    render(
      <StrictMode>
        <App />
      </StrictMode>,
    );

    expect(document.activeElement).toBe(document.body);
    expect(scrolled).not.toHaveBeenCalled();
  });

  it("starts a new page at the top with focus on its main heading", async () => {
    const scrolled = vi.spyOn(window, "scrollTo");
    const { user } = renderAt("/");

    await user.click(within(screen.getByRole("contentinfo")).getByRole("link", { name: "Terms of Service" }));

    expect(window.location.hash).toBe("#/terms-of-service");
    expect(scrolled).toHaveBeenCalledWith(0, 0);
    expect(document.activeElement).toBe(heading("Terms of Service"));

    await user.click(screen.getByRole("link", { name: "Back to Home" }));
    expect(document.activeElement).toBe(heading("Your Homework, Solved in Seconds"));
  });

  it("lets the login page keep the focus it gives its e-mail field", async () => {
    const { user } = renderAt("/");

    await user.click(within(screen.getByRole("banner")).getByRole("link", { name: "Login" }));

    expect(document.activeElement).toBe(screen.getByLabelText("Email address"));
  });

  it("names the browser tab after the page", async () => {
    const { user } = renderAt("/");
    expect(document.title).toBe("Homework Helper: coming soon");

    await user.click(within(screen.getByRole("contentinfo")).getByRole("link", { name: "Privacy Policy" }));
    expect(document.title).toBe("Privacy Policy | Homework Helper");
  });
});

/** Changes the address's hash as a link or the address bar would, and lets the page react. */
async function followHash(hash: string) {
  await act(async () => {
    window.location.hash = hash;
    // jsdom fires hashchange in a task of its own.
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe("section links", () => {
  it.each(Object.values(SECTION_IDS))("/#%s opens the home page at that section, its heading focused, the address then #/", (id) => {
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
    window.history.replaceState(null, "", `/#${id}`);
    const entries = window.history.length;

    render(
      <StrictMode>
        <App />
      </StrictMode>,
    );

    expect(screen.getByRole("heading", { level: 1, name: "Your Homework, Solved in Seconds" })).toBeTruthy();
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled.mock.contexts[0]).toBe(document.getElementById(id));
    // On arrival, like the browser's own jump to a fragment: no animation.
    expect(scrolled).toHaveBeenCalledWith({ behavior: "auto", block: "start" });
    expect(document.activeElement).toBe(document.getElementById(`${id}-title`));
    expect(window.location.hash).toBe("#/");
    expect(window.history.length).toBe(entries);
  });

  it("follows a section link on the home page, smoothly", async () => {
    renderAt("/");
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");

    await followHash("#features");

    expect(scrolled.mock.contexts[0]).toBe(document.getElementById("features"));
    expect(scrolled).toHaveBeenCalledWith({ behavior: "smooth", block: "start" });
    expect(document.activeElement).toBe(document.getElementById("features-title"));
    expect(window.location.hash).toBe("#/");
  });

  it("follows a section link from another page: home, then the section", async () => {
    renderAt("/privacy-policy");
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");

    await followHash("#contact");

    expect(heading("Your Homework, Solved in Seconds")).toBeTruthy();
    expect(scrolled.mock.contexts.at(-1)).toBe(document.getElementById("contact"));
    expect(document.activeElement).toBe(document.getElementById("contact-title"));
    expect(window.location.hash).toBe("#/");
  });

  it("still sends an id that is no section home to the top", () => {
    const scrolled = vi.spyOn(Element.prototype, "scrollIntoView");
    window.history.replaceState(null, "", "/#pricing");
    const entries = window.history.length;

    render(<App />);

    expect(heading("Your Homework, Solved in Seconds")).toBeTruthy();
    expect(window.location.hash).toBe("#/");
    expect(window.history.length).toBe(entries);
    expect(scrolled).not.toHaveBeenCalled();
  });

  it("reads addresses with one rule for the router and the page loader", () => {
    expect(["", "#", "#/", "#contact", "#how-it-works", "#main"].map(routeOfHash)).toEqual(["/", "/", "/", "/", "/", "/"]);
    expect(["#/login", "#login", "#/contact", "#/privacy-policy", "#pricing"].map(routeOfHash)).toEqual([
      "/login",
      "/login",
      "/contact",
      "/privacy-policy",
      "/pricing",
    ]);
    // A query is the page's to read, never part of the route.
    expect(["#/login?next=%2Fadmin%2F", "#/login?next=/admin/", "#login?x", "#/?next=/"].map(routeOfHash)).toEqual([
      "/login",
      "/login",
      "/login",
      "/",
    ]);
  });

  it("shows the sign-in page for the console's link, which carries the way back", () => {
    expect(loginHref(CONSOLE_PATH)).toBe("/#/login?next=%2Fadmin%2F");
    // The console's "Sign in" link.
    expect(LOGIN_URL).toBe(loginHref(CONSOLE_PATH));
    renderAt(loginHref(CONSOLE_PATH).slice(2));
    expect(heading("Sign In")).toBeTruthy();
    expect(window.location.hash).toBe("#/login?next=%2Fadmin%2F");
  });

  it("returns from sign-in only to the console or a page of the site; anything else goes to My place (issue 22)", () => {
    const next = (value: string) => `#/login?next=${encodeURIComponent(value)}`;
    expect(returnPathOfHash(loginHref(CONSOLE_PATH).slice(1))).toBe("/admin/");
    expect(returnPathOfHash("#/login?next=/admin/")).toBe("/admin/");
    expect(returnPathOfHash(next("/privacy-policy"))).toBe("/privacy-policy");
    expect(returnPathOfHash(next("/terms-of-service"))).toBe("/terms-of-service");
    // Where they were going, the home page included; asked for nothing, the page signing in is for.
    expect(returnPathOfHash(next("/"))).toBe("/");
    expect(returnPathOfHash(next("/me"))).toBe("/me");
    for (const refused of [
      "https://evil.example/",
      "//evil.example/admin/",
      "/\\evil.example",
      "javascript:alert(1)",
      "/admin",
      "/admin/../login",
      "/admin/?x=1",
      "/login",
      "/pricing",
      "admin/",
      "",
    ]) {
      expect(returnPathOfHash(next(refused)), refused).toBe("/me");
    }
    expect(returnPathOfHash("#/login")).toBe("/me");
    expect(returnPathOfHash("#/login?other=/admin/")).toBe("/me");
  });
});

describe("skip link", () => {
  it("is the first stop of the Tab key and moves focus to the page's main content, leaving the address alone", async () => {
    const { user } = renderAt("/privacy-policy");

    await user.tab();
    const skip = screen.getByRole("link", { name: "Skip to content" });
    expect(document.activeElement).toBe(skip);
    expect(skip.getAttribute("href")).toBe("#main");

    await user.keyboard("{Enter}");
    expect(document.activeElement).toBe(screen.getByRole("main"));
    expect(window.location.hash).toBe("#/privacy-policy");
    expect(heading("Privacy Policy")).toBeTruthy();
  });
});

describe("legal pages", () => {
  it("privacy policy: last updated December 5, 2026 (its text changed then), five sections, the contact e-mail", () => {
    renderAt("/privacy-policy");

    expect(screen.getByText("Last updated December 5, 2026")).toBeTruthy();
    expect(screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent)).toEqual([
      "Introduction",
      "Information We Collect",
      "Use of Your Information",
      "Security",
      "Contact Us",
    ]);
    const mail = screen.getByRole("link", { name: "hello@homeworkhelper.app" });
    expect(mail.getAttribute("href")).toBe("mailto:hello@homeworkhelper.app");
    expect(screen.getByText(/email address you enter to join the waitlist or in the contact form/)).toBeTruthy();
  });

  it("privacy policy: opens with a short summary in plain words, its days the published schedule's (issue 23)", () => {
    renderAt("/privacy-policy");
    const intro = screen.getByRole("heading", { level: 2, name: "Introduction" }).closest("section")!;
    const summary = intro.querySelector("p")!.textContent!;
    expect(summary).toBe(
      "In short: we keep your email address so we can tell you when we launch. We don't sell it and we don't show ads. " +
        `If you don't confirm it, we delete it after ${PUBLISHED_RETENTION_DAYS.RETENTION_UNCONFIRMED_DAYS} days. ` +
        "You can see, download or delete what we keep at any time on your My place page.",
    );
    // Short sentences: none over 20 words.
    for (const sentence of summary.split(/(?<=\.) /)) expect(sentence.split(" ").length, sentence).toBeLessThanOrEqual(20);
  });

  it("privacy policy: the retention schedule as a table, in the days the cron enforces (issue 23)", () => {
    renderAt("/privacy-policy");
    const table = screen.getByRole("table", { name: "How long we keep it" });
    expect(table.closest("section")!.querySelector("h2")!.textContent).toBe("Use of Your Information");
    const rows = within(table)
      .getAllByRole("row")
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ["What", "How long"],
      ["A waitlist entry you have not confirmed", `${PUBLISHED_RETENTION_DAYS.RETENTION_UNCONFIRMED_DAYS} days after you last joined`],
      [
        "A parent's request for a child, not yet answered",
        `${PUBLISHED_RETENTION_DAYS.RETENTION_PARENTAL_REQUEST_DAYS} days after we asked, or at once if the parent says no`,
      ],
      ["A confirmed waitlist entry", "Until you delete it or ask us to"],
      ["The hash of the network a referred friend confirmed from", `${PUBLISHED_RETENTION_DAYS.RETENTION_REFERRAL_NETWORK_DAYS} days`],
      ["A message sent with the contact form", `${PUBLISHED_RETENTION_DAYS.RETENTION_CONTACT_DAYS} days`],
    ]);
    expect(PUBLISHED_RETENTION_DAYS).toMatchObject({
      RETENTION_UNCONFIRMED_DAYS: 30,
      RETENTION_REFERRAL_NETWORK_DAYS: 30,
      RETENTION_CONTACT_DAYS: 365,
    });
  });

  it("privacy policy: names everything stored about a person, why, and how long", () => {
    renderAt("/privacy-policy");
    const section = (name: string) => screen.getByRole("heading", { level: 2, name }).closest("section")!.textContent!;
    const collected = section("Information We Collect");
    // Each column the waitlist stores beyond the address (worker/shared/waitlist.ts, worker/platform/db/schema.ts).
    const words: Record<(typeof ATTRIBUTION_FIELDS)[number] | "source", RegExp> = {
      utm_source: /utm_source/,
      utm_medium: /utm_medium/,
      utm_campaign: /utm_campaign/,
      referrer_host: /the website that referred you/,
      source: /which of our signup forms you used/,
    };
    for (const field of [...ATTRIBUTION_FIELDS, "source" as const]) expect(collected, field).toMatch(words[field]);
    // The contact form's fields, and a signed-in device's record.
    expect(CONTACT_FORM.fields.map((field) => field.name)).toEqual(["name", "email", "message"]);
    expect(collected).toMatch(/your name, email address and message/);
    for (const stored of [/when you signed in/, /last used/, /IP address/, /user agent/, /count of recent requests/]) {
      expect(collected).toMatch(stored);
    }
    expect(collected).not.toMatch(/We only collect what you give us/);
    // Issue 22: the sign-in cookie (worker/features/sign-in/device.ts), what it holds and how long; issue 23 adds hwh_age.
    expect(collected).toMatch(/The first, hwh_device, set when you sign in and kept by your browser for 180 days/);
    expect(collected).toMatch(/a keyed hash of the address, never the address/);

    const use = section("Use of Your Information");
    for (const why of [
      /tell you when the product launches/,
      /which of our links and campaigns/,
      /to answer you/,
      /keep sign-in secure/,
      /floods/,
      /a device you signed in on can always ask for a new code/,
    ]) {
      expect(use).toMatch(why);
    }
    // How long, as the cron run deletes (docs/api.md "Sign-in": codes after a day, used refresh tokens after 30 days).
    expect(use).toMatch(/sign-in codes for at most a day/);
    expect(use).toMatch(/used session tokens for 30 days/);
    // Issue 22: what a deletion removes beyond the person's own rows, and everything it keeps, with why.
    expect(use).toMatch(/everything that links others to you \(the referral credits/);
    const kept = screen.getByText(/After a deletion we keep only the following/).parentElement!.textContent!;
    expect(KEPT_AFTER_ERASURE.length).toBeGreaterThan(0);
    for (const sentence of KEPT_AFTER_ERASURE) expect(kept).toContain(sentence);
  });

  it("terms of service: last updated October 26, 2025, five sections", () => {
    renderAt("/terms-of-service");

    expect(screen.getByText("Last updated October 26, 2025")).toBeTruthy();
    expect(screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent)).toEqual([
      "Agreement to Terms",
      "Use of the Service",
      "Intellectual Property",
      "Limitation of Liability",
      "Governing Law",
    ]);
  });
});

describe("home page", () => {
  it("has the sections of spec §1 in order, with their anchors", () => {
    renderAt("/");

    const main = screen.getByRole("main");
    const sections = [...main.querySelectorAll("section[id]")].map((section) => section.id);
    expect(sections).toEqual(["hero", "features", "how-it-works", "advanced-ai", "subjects", "contact", "early-access"]);
    expect(screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent)).toContain("Get in Touch");
  });

  it("states the claims: launch Q3 2025, free, no subscriptions, 1,000+, 99%, under 30s", () => {
    renderAt("/");

    const badges = screen.getByRole("list", { name: "At a glance" });
    expect(
      within(badges)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["Launching Q3 2025", "Free for students", "No subscriptions"]);
    const stats = document.querySelector("#advanced-ai dl")!;
    expect([...stats.querySelectorAll("dt")].map((dt) => `${dt.textContent} ${dt.nextElementSibling?.textContent}`)).toEqual([
      "Accuracy rate 99%",
      "Response time <30s",
      "Students waiting 1,000+",
    ]);
    expect(screen.getByText(/explanation in under 30s/)).toBeTruthy();
  });

  it("has the three steps and the six subjects", () => {
    renderAt("/");

    const steps = document.getElementById("how-it-works")!;
    expect(
      within(steps)
        .getAllByRole("heading", { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(["Snap or Type", "AI Analyzes", "Learn & Excel"]);
    const subjects = document.getElementById("subjects")!;
    expect(
      within(subjects)
        .getAllByRole("heading", { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(["Mathematics", "Physics", "Chemistry", "History", "Literature", "Biology"]);
    expect(within(subjects).getByText(/from basic arithmetic to advanced calculus/i)).toBeTruthy();
  });

  it("has both waitlist forms, the contact form and a footer with the policies and the copyright", () => {
    renderAt("/");

    expect(within(document.getElementById("hero")!).getByRole("form", { name: "Join the Inner Circle" })).toBeTruthy();
    expect(within(document.getElementById("early-access")!).getByRole("form", { name: "Get Early Access" })).toBeTruthy();
    expect(within(document.getElementById("contact")!).getByRole("form", { name: "Contact Form" })).toBeTruthy();

    const footer = screen.getByRole("contentinfo");
    expect(within(footer).getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe("#/privacy-policy");
    expect(within(footer).getByRole("link", { name: "Terms of Service" }).getAttribute("href")).toBe("#/terms-of-service");
    expect(within(footer).getByText("© 2025 Homework Helper. All rights reserved.")).toBeTruthy();
  });
});

describe("page shell (web/index.html) and its share preview", () => {
  const shell = new DOMParser().parseFromString(indexHtml, "text/html");
  const meta = (selector: string) => shell.querySelector(selector)?.getAttribute("content");

  it("names the page as the app does, and describes it the same everywhere", () => {
    const description = meta('meta[name="description"]');
    expect(shell.title).toBe(documentTitles.home);
    expect(meta('meta[property="og:title"]')).toBe(documentTitles.home);
    expect(meta('meta[name="twitter:title"]')).toBe(documentTitles.home);
    expect(meta('meta[property="og:description"]')).toBe(description);
    expect(meta('meta[name="twitter:description"]')).toBe(description);
    expect(meta('meta[property="og:site_name"]')).toBe(brand.name);
    expect(meta('meta[property="og:image:alt"]')).toBe(`${brand.name}: ${brand.tagline}`);
    expect(meta('meta[name="twitter:image:alt"]')).toBe(`${brand.name}: ${brand.tagline}`);
    expect(meta('meta[property="og:type"]')).toBe("website");
    expect(meta('meta[name="twitter:card"]')).toBe("summary_large_image");
  });

  it("gives root-relative addresses for the worker to make absolute (worker/features/pages/routes.ts)", () => {
    expect(shell.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe("/");
    expect(meta('meta[property="og:url"]')).toBe("/");
    expect(meta('meta[property="og:image"]')).toBe("/og-image.png");
    expect(meta('meta[name="twitter:image"]')).toBe("/og-image.png");
    expect(shell.querySelector('link[rel="apple-touch-icon"]')?.getAttribute("href")).toBe("/apple-touch-icon.png");
  });
});

/**
 * The privacy policy's words for students and their parents (issue 23 §5): still five sections,
 * "Last updated" on the day of the change, the part for parents (what is kept about children and
 * teenagers and why, a parent's rights and how to use them, the consent ages from the table the
 * worker decides with, every row), the retention schedule's line for parental requests, and the
 * address `/#/privacy-policy?section=for-parents` scrolling to the part.
 */
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { FOR_PARENTS_LINK, FOR_PARENTS_PATH, FOR_PARENTS_SECTION } from "@shared/for-parents";
import { CONSENT_AGES, DEFAULT_CONSENT_AGE, UNKNOWN_COUNTRY_CONSENT_AGE } from "@shared/consent-ages";
import { PUBLISHED_RETENTION_DAYS } from "@shared/retention";
import { App } from "../../web/src/App";
import { sectionOfHash } from "../../web/src/components/LegalPage";
import { contactEmail } from "../../web/src/content";
import { Site } from "../../web/src/Site";

vi.mock("../../web/src/auth/client", () => import("./idle-auth-client"));

function renderAt(address: string) {
  window.history.replaceState(null, "", address);
  const user = userEvent.setup();
  render(<App />);
  return { user };
}

const PARENTS_HEADING = "For parents: children and teenagers";
const forParents = () => screen.getByRole("region", { name: PARENTS_HEADING });
const rows = (table: HTMLElement) =>
  within(table)
    .getAllByRole("row")
    .map((row) => [...row.children].map((cell) => cell.textContent));

describe("the privacy policy for students and their parents (issue 23)", () => {
  it("is last updated December 5, 2026 (the spec's 'Month D, YYYY') and keeps its five sections", () => {
    renderAt("/#/privacy-policy");

    expect(screen.getByText("Last updated December 5, 2026")).toBeTruthy();
    expect(screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent)).toEqual([
      "Introduction",
      "Information We Collect",
      "Use of Your Information",
      "Security",
      "Contact Us",
    ]);
    // The part for parents is inside the sections, not a sixth one.
    expect(forParents().closest("section.legal__section")!.querySelector("h2")!.textContent).toBe("Information We Collect");
  });

  it("keeps its summary at the top, says in short words that a parent decides for a young child, and links to the part for parents", () => {
    renderAt("/#/privacy-policy");
    const intro = screen.getByRole("heading", { level: 2, name: "Introduction" }).closest("section")!;
    const paragraphs = [...intro.querySelectorAll("p")].map((p) => p.textContent!);

    expect(paragraphs[0]).toMatch(/^In short: we keep your email address so we can tell you when we launch\./);
    expect(paragraphs[1]).toBe(
      `If you are too young to agree on your own (under ${DEFAULT_CONSENT_AGE} in most places), a parent or guardian decides. ` +
        "We then don't keep your own email address.",
    );
    for (const sentence of paragraphs[1]!.split(/(?<=\.) /)) expect(sentence.split(" ").length, sentence).toBeLessThanOrEqual(20);
    const link = within(intro).getByRole("link", { name: new RegExp(`^${FOR_PARENTS_LINK}:`) });
    expect(link.getAttribute("href")).toBe(FOR_PARENTS_PATH);
  });

  it("has an element with the id the 'For parents' links name, holding the children's part", () => {
    renderAt("/#/privacy-policy");

    expect(FOR_PARENTS_SECTION).toBe("for-parents");
    expect(document.getElementById(FOR_PARENTS_SECTION)).toBe(forParents());
    expect(FOR_PARENTS_PATH).toBe("/#/privacy-policy?section=for-parents");
  });

  it("says what it keeps about children and teenagers, and why", () => {
    renderAt("/#/privacy-policy");
    const part = forParents().textContent!;

    for (const rule of [
      // The neutral question: only a band and the country, never the birth date.
      /everyone who joins the waitlist is asked the month and year they were born/,
      /We keep only the age band and the country, never the birth month or year/,
      /The answer holds for 24 hours/,
      // Below the consent age: the parent's address only, not the child's.
      /a child cannot join on their own: a parent or guardian decides/,
      /We don't keep the child's address and we never email it/,
      /Until the parent answers, we keep only the parent's email address, the age band, the country and when we asked/,
      new RegExp(`without an answer, we delete it after ${PUBLISHED_RETENTION_DAYS.RETENTION_PARENTAL_REQUEST_DAYS} days`),
      /If they say no, we delete the request at once/,
      // After the parent agrees: an entry for the parent's address on behalf of the child.
      /a waitlist entry for the parent's own email address, marked as on behalf of a child/,
      /our emails go to the parent, never to the child/,
      // No referral rewards for under-18s; nothing passed on.
      /An entry a parent made has no referral code or link/,
      /we offer no rewards for bringing friends to anyone under 18/,
      /We never sell or pass on anything about a child or teenager to anyone/,
    ]) {
      expect(part).toMatch(rule);
    }
    // The general list names the question and the age cookie too.
    const collected = screen.getByRole("heading", { level: 2, name: "Information We Collect" }).closest("section")!.textContent!;
    expect(collected).toMatch(
      /From it we keep only your age band \(under 13, 13 to 15, 16 to 17, or 18 and over\), never the month or year/,
    );
    expect(collected).toMatch(/hwh_age, set when you answer the age question and kept for 24 hours/);
    const use = screen.getByRole("heading", { level: 2, name: "Use of Your Information" }).closest("section")!.textContent!;
    expect(use).toMatch(/Your age band and country: to know whether a parent or guardian decides first/);
  });

  it("names a parent's rights (see, delete, refuse) and how to use each: My place, saying no, the contact form", () => {
    renderAt("/#/privacy-policy");
    const part = forParents();

    expect(within(part).getByRole("heading", { level: 4, name: "A parent's rights, and how to use them" })).toBeTruthy();
    expect(part.textContent).toMatch(/see what we keep about their child, have it deleted, and refuse any further collection/);
    const myPlace = within(part).getByRole("link", { name: "My place" });
    expect(myPlace.getAttribute("href")).toBe("#/me");
    expect(myPlace.closest("li")!.textContent).toBe(
      "To see it, download it or delete it: sign in with your own email address (the one we emailed) on My place.",
    );
    expect(part.textContent).toMatch(
      /To refuse: say no on the page our email links to\. We delete the request at once and collect nothing more\./,
    );
    const contact = within(part).getByRole("link", { name: "the contact form" });
    expect(contact.getAttribute("href")).toBe("#contact");
    expect(contact.closest("li")!.textContent).toContain(`or at ${contactEmail}.`);
  });

  it("prints the consent ages from the table the worker decides with: every country under its age, youngest first, with everywhere else and an unknown country", () => {
    renderAt("/#/privacy-policy");
    const table = within(forParents()).getByRole("table", { name: "Age below which a parent decides" });

    expect(CONSENT_AGES.length).toBeGreaterThanOrEqual(31);
    const printed = rows(table);
    expect(printed[0]).toEqual(["Age", "Where"]);
    expect(printed.slice(1).map(([age]) => age)).toEqual(["13", "14", "15", "16"]);
    // Every country of the table, under its own age and no other.
    for (const row of CONSENT_AGES) {
      const under = printed.slice(1).filter(([, where]) => where!.split(", ").includes(row.name));
      expect(
        under.map(([age]) => age),
        row.name,
      ).toEqual([String(row.age)]);
    }
    expect(printed.find(([age]) => age === String(DEFAULT_CONSENT_AGE))![1]).toMatch(/, everywhere else, the United States included$/);
    expect(printed.find(([age]) => age === String(UNKNOWN_COUNTRY_CONSENT_AGE))![1]).toMatch(/, wherever we cannot tell the country$/);
    expect([DEFAULT_CONSENT_AGE, UNKNOWN_COUNTRY_CONSENT_AGE]).toEqual([13, 16]);
    // Each age is a row heading, so a screen reader names the row.
    expect(within(table).getByRole("rowheader", { name: "16" })).toBeTruthy();
    // PARENTAL_CONSENT_UNDER only ever raises the age: said without a number the build cannot know.
    expect(forParents().textContent).toMatch(/We may choose to ask a parent up to an older age everywhere, never a younger one\./);
  });

  it("lists parental requests in the retention schedule, in the days the cron enforces", () => {
    renderAt("/#/privacy-policy");
    const table = screen.getByRole("table", { name: "How long we keep it" });

    expect(rows(table)).toContainEqual([
      "A parent's request for a child, not yet answered",
      `${PUBLISHED_RETENTION_DAYS.RETENTION_PARENTAL_REQUEST_DAYS} days after we asked, or at once if the parent says no`,
    ]);
    expect(PUBLISHED_RETENTION_DAYS.RETENTION_PARENTAL_REQUEST_DAYS).toBe(7);
  });
});

describe("the address ?section=for-parents", () => {
  /**
   * The part sits 1200 px down the page (jsdom has no layout: everything else at 0, the header's
   * bottom too); the scroll leaves 16 px between the header and the part.
   */
  function placePart() {
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      return DOMRect.fromRect(this.id === FOR_PARENTS_SECTION ? { x: 0, y: 1200, width: 320, height: 900 } : {});
    });
  }

  it("reads the part from a legal page's address, and nothing else", () => {
    expect(sectionOfHash("#/privacy-policy?section=for-parents")).toBe("for-parents");
    expect(sectionOfHash("#/privacy-policy")).toBeNull();
    expect(sectionOfHash("#/privacy-policy?section=")).toBeNull();
    expect(sectionOfHash('#/privacy-policy?section="><img')).toBeNull();
  });

  it("on arrival, scrolls the page to the part at once and focuses its heading", async () => {
    const scrolled = vi.spyOn(window, "scrollTo");
    placePart();
    renderAt(FOR_PARENTS_PATH);

    await waitFor(() => expect(scrolled).toHaveBeenCalledWith({ top: 1200 - 16, behavior: "auto" }));
    expect(document.activeElement).toBe(screen.getByRole("heading", { level: 3, name: PARENTS_HEADING }));
  });

  it("from another page: the part, after the new page's own scroll to its top", async () => {
    const scrolled = vi.spyOn(window, "scrollTo");
    placePart();
    renderAt("/#/");
    scrolled.mockClear();

    // As the footer's or a form's "For parents" link does (the browser fires one hashchange).
    await act(async () => {
      window.location.hash = FOR_PARENTS_PATH.slice(1);
    });

    await waitFor(() => expect(scrolled).toHaveBeenLastCalledWith({ top: 1200 - 16, behavior: "auto" }));
    expect(scrolled).toHaveBeenCalledWith(0, 0);
    expect(document.activeElement).toBe(screen.getByRole("heading", { level: 3, name: PARENTS_HEADING }));
  });

  it("within the page: the policy's own 'For parents' link scrolls to the part", async () => {
    const scrolled = vi.spyOn(window, "scrollTo");
    placePart();
    const { user } = renderAt("/#/privacy-policy");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(scrolled).not.toHaveBeenCalled();

    await user.click(screen.getByRole("link", { name: new RegExp(`^${FOR_PARENTS_LINK}:`) }));

    await waitFor(() => expect(scrolled).toHaveBeenCalledWith({ top: 1200 - 16, behavior: "auto" }));
    expect(window.location.hash).toBe("#/privacy-policy?section=for-parents");
    expect(screen.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole("heading", { level: 3, name: PARENTS_HEADING }));
  });

  it("is prerendered with the part's id, so the page the start script shows already holds it", () => {
    const html = renderToString(<Site ssrPath="/privacy-policy" />);

    expect(html).toContain(`id="${FOR_PARENTS_SECTION}"`);
    expect(html).toContain(`href="${FOR_PARENTS_PATH}"`);
  });
});

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from "react";
import { useLocation } from "wouter";
import { navigate as navigateHash } from "wouter/use-hash-location";
import { prefersReducedMotion } from "./hooks/reduced-motion";
import { MAIN_ID, ROUTES, type SectionId, anchorOfHash, isKnownRoute, routeOfHash } from "./routes";

export { MAIN_ID };

/** Where focus goes when a section is shown: its heading, or (the waitlist buttons) its e-mail field. */
export type SectionFocus = "heading" | "email";

/** A button that shows a home page section (the header's, whose labels are content.ts's). */
export type SectionLink = { target: SectionId; focus?: SectionFocus };

type SiteNavigation = {
  /** Scrolls the home page to a section (going home first from other pages) and focuses it. */
  goToSection: (id: SectionId, focus?: SectionFocus) => void;
};

const SiteNavigationContext = createContext<SiteNavigation | null>(null);

export function useSiteNavigation(): SiteNavigation {
  const navigation = useContext(SiteNavigationContext);
  if (!navigation) throw new Error("useSiteNavigation must be used inside <SiteNavigationProvider>.");
  return navigation;
}

// ---------------------------------------------------------------------------------------------
// The location: wouter's hash location, except that a section link (/#contact) is the home page

function subscribeToHash(onChange: () => void): () => void {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
}

const currentHash = () => window.location.hash;

/**
 * The router's location hook (<Router hook>): wouter's hash location (its navigate, its
 * hrefs), read with routeOfHash, so "#contact" is the home page rather than an unknown path
 * "/contact" that would be sent home to its top. Without a browser (the prerender) and while
 * hydrating, it is the router's ssrPath, like wouter's own hook.
 */
export function useSiteLocation({ ssrPath = ROUTES.home }: { ssrPath?: string } = {}): [string, typeof navigateHash] {
  const hash = useSyncExternalStore(subscribeToHash, currentHash, () => null);
  return [hash === null ? ssrPath : routeOfHash(hash), navigateHash];
}

useSiteLocation.hrefs = (href: string) => `#${href}`;

// ---------------------------------------------------------------------------------------------

type PendingSection = { id: string; focus: SectionFocus };

/**
 * What happens when the route changes (but not on the first load, where the browser's own
 * starting point is right): the new page starts at the top and keyboard and screen-reader users
 * land on its main heading, unless the page already focused something itself (the login form).
 * A section requested from another page is scrolled to once the home page is shown.
 *
 * Section links: an address naming a home page anchor (/#contact, on the first load or later)
 * shows the home page scrolled to it with its heading focused, as the header's buttons do. The
 * address then becomes the home page's own, "#/", in place (no new history entry): the header's
 * buttons never put a section in the address either, so what the address says never goes stale
 * as the visitor scrolls or uses them, and a reload shows the page from its top like any other.
 */
export function SiteNavigationProvider({ children }: { children: ReactNode }) {
  const [location, navigate] = useLocation();
  const shownLocation = useRef<string | null>(null);
  const pendingSection = useRef<PendingSection | null>(null);

  useEffect(() => {
    // An unknown path is about to be replaced by "/": the page shown after it is what counts, so
    // a first load of an unknown path still counts as the first load.
    if (!isKnownRoute(location)) return;
    const previous = shownLocation.current;
    shownLocation.current = location;
    // The first load, or the same location again (StrictMode runs effects twice in development).
    if (previous === null || previous === location) return;

    const pending = pendingSection.current;
    pendingSection.current = null;
    if (pending !== null && location === ROUTES.home) {
      revealAnchor(pending.id, { focus: pending.focus });
      return;
    }
    window.scrollTo(0, 0);
    focusPageStart();
  }, [location]);

  // Section links, on the first load and whenever the hash changes (a link to "#features", an
  // edited address, Back to such an address from before this page was loaded).
  useEffect(() => {
    const follow = (firstLoad: boolean) => {
      const id = anchorOfHash(window.location.hash);
      if (id === null) return;
      // The home page's own address; the router reads both as "/", so nothing re-renders.
      window.history.replaceState(window.history.state, "", "#/");
      // Coming from another page, the section exists once the home page has rendered.
      if (document.getElementById(id)) revealAnchor(id, { focus: "heading", instant: firstLoad });
      else pendingSection.current = { id, focus: "heading" };
    };
    follow(true);
    const onHashChange = () => follow(false);
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, []);

  const goToSection = useCallback(
    (id: SectionId, focus: SectionFocus = "heading") => {
      if (location === ROUTES.home) {
        revealAnchor(id, { focus });
        return;
      }
      pendingSection.current = { id, focus };
      navigate(ROUTES.home);
    },
    [location, navigate],
  );

  const value = useMemo<SiteNavigation>(() => ({ goToSection }), [goToSection]);
  return <SiteNavigationContext.Provider value={value}>{children}</SiteNavigationContext.Provider>;
}

/**
 * Shows a home page anchor: a section scrolls to the top (under the sticky header, its scroll
 * margin), smoothly unless the visitor prefers less motion or it is the first load (where the
 * browser's own fragment scroll is instant too), and its heading takes focus; <main> (the skip
 * link's target) only takes focus.
 *
 * With focus "email" the section's waitlist form takes focus at its first field instead (the
 * waitlist buttons: the visitor came to type): the age question's month (issue 23), which comes
 * before the e-mail, or the e-mail field. The section's top is still the place to scroll to when the field is
 * then on screen; when it is not (a short screen, large text) the field is scrolled to instead,
 * so focus never lands where the visitor cannot see it.
 */
function revealAnchor(id: string, { focus, instant = false }: { focus: SectionFocus; instant?: boolean }): void {
  const target = document.getElementById(id);
  if (!target) return;
  if (id === MAIN_ID) {
    target.focus();
    return;
  }
  const behavior: ScrollBehavior = instant || prefersReducedMotion() ? "auto" : "smooth";
  const field = focus === "email" ? target.querySelector<HTMLElement>('select:not([disabled]), input[type="email"]:not([disabled])') : null;
  if (field && !fitsUnderHeader(target, field)) {
    field.scrollIntoView({ behavior, block: "center" });
  } else {
    target.scrollIntoView({ behavior, block: "start" });
  }
  // Focus follows, so the next Tab continues from here; the scroll above is the one to see.
  const focusTarget = field ?? target.querySelector<HTMLElement>("h1[tabindex], h2[tabindex]");
  focusTarget?.focus({ preventScroll: true });
}

/** Whether `inner` is on screen once `section` is scrolled to the top (below its scroll margin). */
function fitsUnderHeader(section: HTMLElement, inner: HTMLElement): boolean {
  const margin = Number.parseFloat(getComputedStyle(section).scrollMarginTop) || 0;
  const depth = inner.getBoundingClientRect().bottom - section.getBoundingClientRect().top;
  return margin + depth <= window.innerHeight;
}

/** Focuses the new page's main heading, or <main> itself when the page has none to focus. */
function focusPageStart(): void {
  const main = document.getElementById(MAIN_ID);
  if (!main) return;
  const active = document.activeElement;
  if (active && active !== main && main.contains(active)) return;
  const heading = main.querySelector<HTMLElement>("h1[tabindex]");
  (heading ?? main).focus({ preventScroll: true });
}

/**
 * The skip link's action: focus moves to <main>, so the next Tab continues in the page's content.
 * The link's own "#main" would do that without JavaScript; with hash routing it would instead
 * change the route, so it is done here.
 */
export function skipToMain(): void {
  document.getElementById(MAIN_ID)?.focus();
}

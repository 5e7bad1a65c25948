import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from "react";
import { useLocation } from "wouter";
import type { SectionId } from "./content";
import { prefersReducedMotion } from "./hooks/reduced-motion";
import { ROUTES, isKnownRoute } from "./routes";

/** The id of the page's <main>, which takes focus when a page has no heading to focus. */
export const MAIN_ID = "main";

type SiteNavigation = {
  /** Scrolls the home page to a section (going home first from other pages) and focuses it. */
  goToSection: (id: SectionId) => void;
};

const SiteNavigationContext = createContext<SiteNavigation | null>(null);

export function useSiteNavigation(): SiteNavigation {
  const navigation = useContext(SiteNavigationContext);
  if (!navigation) throw new Error("useSiteNavigation must be used inside <SiteNavigationProvider>.");
  return navigation;
}

/**
 * What happens when the route changes (but not on the first load, where the browser's own
 * starting point is right): the new page starts at the top and keyboard and screen-reader users
 * land on its main heading, unless the page already focused something itself (the login form).
 * A section requested from another page is scrolled to once the home page is shown.
 */
export function SiteNavigationProvider({ children }: { children: ReactNode }) {
  const [location, navigate] = useLocation();
  const shownLocation = useRef<string | null>(null);
  const pendingSection = useRef<SectionId | null>(null);

  useEffect(() => {
    // An unknown path is about to be replaced by "/": the page shown after it is what counts, so
    // a first load of an unknown path still counts as the first load.
    if (!isKnownRoute(location)) return;
    const previous = shownLocation.current;
    shownLocation.current = location;
    // The first load, or the same location again (StrictMode runs effects twice in development).
    if (previous === null || previous === location) return;

    const section = pendingSection.current;
    pendingSection.current = null;
    if (section !== null && location === ROUTES.home) {
      revealSection(section);
      return;
    }
    window.scrollTo(0, 0);
    focusPageStart();
  }, [location]);

  const goToSection = useCallback(
    (id: SectionId) => {
      if (location === ROUTES.home) {
        revealSection(id);
        return;
      }
      pendingSection.current = id;
      navigate(ROUTES.home);
    },
    [location, navigate],
  );

  const value = useMemo<SiteNavigation>(() => ({ goToSection }), [goToSection]);
  return <SiteNavigationContext.Provider value={value}>{children}</SiteNavigationContext.Provider>;
}

/** Scrolls to a section (smoothly unless the visitor prefers less motion) and focuses its heading. */
function revealSection(id: SectionId): void {
  const section = document.getElementById(id);
  if (!section) return;
  section.scrollIntoView({ behavior: prefersReducedMotion() ? "auto" : "smooth", block: "start" });
  // Focus follows, so the next Tab continues from the section; the scroll above is the one to see.
  section.querySelector<HTMLElement>("h1[tabindex], h2[tabindex]")?.focus({ preventScroll: true });
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

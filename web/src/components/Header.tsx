import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Link, useLocation } from "wouter";
import Menu from "lucide-react/icons/menu";
import X from "lucide-react/icons/x";
import { useAuth } from "../auth/auth-context";
import { brand, header } from "../content";
import { useHydrated } from "../hooks/hydrated";
import { type SectionLink, useSiteNavigation } from "../navigation";
import { ROUTES } from "../routes";
import { AuthStatus } from "./AuthStatus";

/** Spec §2 and §9: the header turns blurred and darker once the page is scrolled past this. */
const HEADER_SCROLL_THRESHOLD_PX = 50;

const MENU_ID = "site-menu";
/** The checkbox that opens the menu before the app runs (see Header). */
const MENU_STATE_ID = "site-menu-state";

/**
 * The header shared by every page (spec §2): the brand (a link home), buttons that scroll the
 * home page to its sections, the Get Early Access button and the sign-in area. It turns blurred
 * and darker once the page is scrolled past 50 px. On small screens everything but the brand
 * folds into a menu behind a toggle, which closes on Escape (focus back on the toggle), on a tap
 * outside the header, on navigation, after Logout and when a section button is used; a
 * signed-in visitor's "My place" stays beside the toggle (issue 22).
 *
 * Before the app runs (the prerendered HTML: a browser without JavaScript, or the moment before
 * hydration) the same menu works without script: the toggle is the label of a checkbox whose
 * :checked state shows the menu (styles.css), and the section buttons are links to the home
 * page's anchors (#features), which the browser follows by itself. Once hydrated, the app swaps
 * them for the real toggle button and section buttons, keeping a menu opened meanwhile open.
 */
export function Header() {
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const hydrated = useHydrated();
  const headerRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const fallbackToggleRef = useRef<HTMLInputElement>(null);
  const focusToggleWhenHydrated = useRef(false);
  const [location] = useLocation();
  const { goToSection } = useSiteNavigation();

  // Runs in the hydration's commit, while the checkbox is still there: a menu the visitor opened
  // before the app ran stays open, and a focused toggle stays focused, across the swap.
  useLayoutEffect(() => {
    const fallback = fallbackToggleRef.current;
    if (!fallback) return;
    if (fallback.checked) setMenuOpen(true);
    if (document.activeElement === fallback) focusToggleWhenHydrated.current = true;
  }, []);

  useEffect(() => {
    if (!hydrated || !focusToggleWhenHydrated.current) return;
    focusToggleWhenHydrated.current = false;
    toggleRef.current?.focus();
  }, [hydrated]);

  useEffect(() => {
    const update = () => setScrolled(window.scrollY > HEADER_SCROLL_THRESHOLD_PX);
    // A reload can start anywhere on the page.
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  // A new page closes the menu (not the first render's location: a menu opened before hydration stays open).
  const menuLocation = useRef(location);
  useEffect(() => {
    if (menuLocation.current === location) return;
    menuLocation.current = location;
    setMenuOpen(false);
  }, [location]);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    // A tap (or click) anywhere outside the header closes the menu and still does what it does
    // there; focus stays where the tap puts it. A click, not a pointerdown: a finger that starts
    // scrolling the page is no tap, and closing the menu under it would shift the page.
    const closeOnOutsideTap = (event: MouseEvent) => {
      // The event's path, not its target: the click that opened the menu is still on its way
      // here, and the icon it hit has been replaced (open/close) and is no longer in the header.
      const header = headerRef.current;
      if (header && event.composedPath().includes(header)) return;
      setMenuOpen(false);
    };
    document.addEventListener("keydown", closeOnEscape);
    document.addEventListener("click", closeOnOutsideTap);
    return () => {
      document.removeEventListener("keydown", closeOnEscape);
      document.removeEventListener("click", closeOnOutsideTap);
    };
  }, [menuOpen]);

  function go(link: SectionLink) {
    // The menu is closed (and the header, which is in the page's flow, shorter) before the
    // scroll is aimed: closing it afterwards would move the section up by the menu's height,
    // past the top of the screen.
    flushSync(() => setMenuOpen(false));
    goToSection(link.target, link.focus);
  }

  function afterLogout() {
    if (!menuOpen) return;
    // The Logout button is gone with the menu: focus goes back to the toggle, as after Escape.
    setMenuOpen(false);
    toggleRef.current?.focus();
  }

  const className = ["site-header", scrolled && "site-header--scrolled", menuOpen && "site-header--open"].filter(Boolean).join(" ");

  return (
    <header ref={headerRef} className={className}>
      <div className="site-header__inner">
        <Link href="/" className="site-header__brand" aria-label={header.homeLinkLabel}>
          <BrandMark />
          {brand.name}
        </Link>
        <MyPlaceLink current={location === ROUTES.me} />
        {hydrated ? (
          <button
            ref={toggleRef}
            type="button"
            className="site-header__toggle"
            aria-expanded={menuOpen}
            aria-controls={MENU_ID}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
            <span className="visually-hidden">{header.menuButton}</span>
          </button>
        ) : (
          <>
            <input
              ref={fallbackToggleRef}
              id={MENU_STATE_ID}
              type="checkbox"
              className="visually-hidden site-header__menu-state"
              aria-controls={MENU_ID}
            />
            <label htmlFor={MENU_STATE_ID} className="site-header__toggle">
              <Menu aria-hidden="true" className="site-header__toggle-open" />
              <X aria-hidden="true" className="site-header__toggle-close" />
              <span className="visually-hidden">{header.menuButton}</span>
            </label>
          </>
        )}
        <div id={MENU_ID} className="site-header__menu">
          <nav className="site-header__nav" aria-label={header.navLabel}>
            <ul>
              {header.sections.map((link) => (
                <li key={link.label}>
                  {hydrated ? (
                    <button type="button" className="site-header__link" onClick={() => go(link)}>
                      {link.label}
                    </button>
                  ) : (
                    <a href={`#${link.target}`} className="site-header__link">
                      {link.label}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          </nav>
          {hydrated ? (
            <button type="button" className="button button--primary site-header__cta" onClick={() => go(header.cta)}>
              {header.cta.label}
            </button>
          ) : (
            <a href={`#${header.cta.target}`} className="button button--primary site-header__cta">
              {header.cta.label}
            </a>
          )}
          <AuthStatus onLoggedOut={afterLogout} />
        </div>
      </div>
    </header>
  );
}

/**
 * "My place" in the header's first row when signed in, so on a phone the way there is in sight,
 * not only in the menu (issue 22). The full header (styles.css, from 68rem) hides it: there the
 * signed-in address, always shown, is the link to My place.
 */
function MyPlaceLink({ current }: { current: boolean }) {
  const { email } = useAuth();
  if (email === null) return null;
  return (
    <Link href={ROUTES.me} className="site-header__me" aria-current={current ? "page" : undefined}>
      {header.myPlace}
    </Link>
  );
}

/**
 * The brand's mark, the favicon's (public/favicon.svg; a test keeps the two the same), drawn
 * inline so it costs no request before the first paint.
 */
function BrandMark() {
  return (
    <svg className="site-header__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#4f46e5" />
      <path d="M9 22V10h3v4.6h8V10h3v12h-3v-4.8h-8V22z" fill="#fff" />
    </svg>
  );
}

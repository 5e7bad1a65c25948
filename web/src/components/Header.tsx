import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Link, useLocation } from "wouter";
import Menu from "lucide-react/icons/menu";
import X from "lucide-react/icons/x";
import { HEADER_SCROLL_THRESHOLD_PX, brand, header, type SectionLink } from "../content";
import { useSiteNavigation } from "../navigation";
import { AuthStatus } from "./AuthStatus";

const MENU_ID = "site-menu";

/**
 * The header shared by every page (spec §2): the brand (a link home), buttons that scroll the
 * home page to its sections, the Get Early Access button and the sign-in area. It turns blurred
 * and darker once the page is scrolled past 50 px. On small screens everything but the brand
 * folds into a menu behind a toggle, which closes on Escape (focus back on the toggle), on
 * navigation and when a section button is used.
 */
export function Header() {
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const [location] = useLocation();
  const { goToSection } = useSiteNavigation();

  useEffect(() => {
    const update = () => setScrolled(window.scrollY > HEADER_SCROLL_THRESHOLD_PX);
    // A reload can start anywhere on the page.
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  useEffect(() => {
    setMenuOpen(false);
  }, [location]);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [menuOpen]);

  function go(link: SectionLink) {
    // The menu is closed (and the header, which is in the page's flow, shorter) before the
    // scroll is aimed: closing it afterwards would move the section up by the menu's height,
    // past the top of the screen.
    flushSync(() => setMenuOpen(false));
    goToSection(link.target);
  }

  const className = ["site-header", scrolled && "site-header--scrolled", menuOpen && "site-header--open"]
    .filter(Boolean)
    .join(" ");

  return (
    <header className={className}>
      <div className="site-header__inner">
        <Link href="/" className="site-header__brand" aria-label={header.homeLinkLabel}>
          {brand.name}
        </Link>
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
        <div id={MENU_ID} className="site-header__menu">
          <nav className="site-header__nav" aria-label={header.navLabel}>
            <ul>
              {header.sections.map((link) => (
                <li key={link.label}>
                  <button type="button" className="site-header__link" onClick={() => go(link)}>
                    {link.label}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <button type="button" className="button button--primary site-header__cta" onClick={() => go(header.cta)}>
            {header.cta.label}
          </button>
          <AuthStatus />
        </div>
      </div>
    </header>
  );
}

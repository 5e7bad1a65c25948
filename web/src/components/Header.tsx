import { Link } from "wouter";
import { brand, header } from "../content";
import { AuthStatus } from "./AuthStatus";

/**
 * The header shared by every page: the brand (a link home) and the sign-in area. The home page's
 * scroll-to-section buttons and the small-screen menu toggle belong in `site-header__nav`,
 * between the two.
 */
export function Header() {
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link href="/" className="site-header__brand" aria-label={header.homeLinkLabel}>
          {brand.name}
        </Link>
        <div className="site-header__nav" />
        <AuthStatus />
      </div>
    </header>
  );
}

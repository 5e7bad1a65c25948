import { Link } from "wouter";
import { FOR_PARENTS_LINK, FOR_PARENTS_PATH } from "@shared/for-parents";
import { brand, footer } from "../content";
import { ROUTES } from "../routes";

/** The footer of every page (spec §2): tagline, the two policy pages and the part for parents (issue 23), the copyright line. */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <div className="site-footer__brand">
          <p className="site-footer__name">{brand.name}</p>
          <p className="site-footer__tagline">{footer.tagline}</p>
        </div>
        <nav aria-label={footer.linksLabel}>
          <ul className="site-footer__links">
            <li>
              <Link href={ROUTES.privacyPolicy}>{footer.privacyLink}</Link>
            </li>
            <li>
              <Link href={ROUTES.termsOfService}>{footer.termsLink}</Link>
            </li>
            <li>
              {/* The privacy policy's part for parents (a plain link: its address names the section). */}
              <a href={FOR_PARENTS_PATH}>{FOR_PARENTS_LINK}</a>
            </li>
          </ul>
        </nav>
        <p className="site-footer__copyright">{footer.copyright}</p>
      </div>
    </footer>
  );
}

import type { MouseEvent } from "react";
import { Redirect, Route, Router, Switch, useLocation } from "wouter";
import { AuthProvider } from "./auth/AuthProvider";
import { Footer } from "./components/Footer";
import { Header } from "./components/Header";
import { documentTitles, header } from "./content";
import { useDocumentTitle } from "./hooks/document-title";
import { MAIN_ID, SiteNavigationProvider, skipToMain, useSiteLocation } from "./navigation";
import { HomePage } from "./pages/HomePage";
import { MyPlacePage } from "./pages/MyPlacePage";
import { LoginRoute, PrivacyPolicyRoute, TermsOfServiceRoute } from "./pages/route-chunks";
import { ROUTES } from "./routes";

const TITLES: Readonly<Record<string, string>> = {
  [ROUTES.home]: documentTitles.home,
  [ROUTES.privacyPolicy]: documentTitles.privacyPolicy,
  [ROUTES.termsOfService]: documentTitles.termsOfService,
  [ROUTES.login]: documentTitles.login,
  [ROUTES.me]: documentTitles.me,
};

/**
 * The site: hash routing (spec §2), so every page is served by the same index.html and the
 * worker needs no page routes. Paths the site does not know go home, replacing the history entry.
 * A section link (/#contact) is the home page at that section (navigation.tsx).
 *
 * `ssrPath` renders that route without a browser (the build's prerender of the home page). The
 * browser's first render, while it hydrates, also sees "/" (the hash hook's server snapshot),
 * so it matches the prerendered HTML; the real hash is read right after.
 */
export function App({ ssrPath }: { ssrPath?: string }) {
  return (
    <Router hook={useSiteLocation} ssrPath={ssrPath}>
      <AuthProvider>
        <SiteNavigationProvider>
          <Layout />
        </SiteNavigationProvider>
      </AuthProvider>
    </Router>
  );
}

function Layout() {
  const [location] = useLocation();
  useDocumentTitle(TITLES[location] ?? documentTitles.home);
  return (
    <>
      {/* The first stop of the Tab key, out of sight until it has focus. */}
      <a href={`#${MAIN_ID}`} className="skip-link" onClick={onSkipLink}>
        {header.skipLink}
      </a>
      <Header />
      {/* Focusable from script only: the skip link's target, and focused after a route change to a page without a heading to focus. */}
      <main id={MAIN_ID} className="site-main" tabIndex={-1}>
        <Switch>
          <Route path={ROUTES.home} component={HomePage} />
          <Route path={ROUTES.privacyPolicy} component={PrivacyPolicyRoute} />
          <Route path={ROUTES.termsOfService} component={TermsOfServiceRoute} />
          <Route path={ROUTES.login} component={LoginRoute} />
          <Route path={ROUTES.me} component={MyPlacePage} />
          <Route>
            <Redirect to={ROUTES.home} replace />
          </Route>
        </Switch>
      </main>
      <Footer />
    </>
  );
}

/**
 * Without JavaScript the link's "#main" moves focus to <main> by itself; with hash routing the
 * fragment would be read as a route, so the app moves focus and leaves the address alone.
 */
function onSkipLink(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  skipToMain();
}

import { Redirect, Route, Router, Switch, useLocation } from "wouter";
import { useHashLocation } from "wouter/use-hash-location";
import { AuthProvider } from "./auth/AuthProvider";
import { Footer } from "./components/Footer";
import { Header } from "./components/Header";
import { documentTitles } from "./content";
import { useDocumentTitle } from "./hooks/document-title";
import { MAIN_ID, SiteNavigationProvider } from "./navigation";
import { HomePage } from "./pages/HomePage";
import { LoginPage } from "./pages/LoginPage";
import { PrivacyPolicyPage } from "./pages/PrivacyPolicyPage";
import { TermsOfServicePage } from "./pages/TermsOfServicePage";
import { ROUTES } from "./routes";

const TITLES: Readonly<Record<string, string>> = {
  [ROUTES.home]: documentTitles.home,
  [ROUTES.privacyPolicy]: documentTitles.privacyPolicy,
  [ROUTES.termsOfService]: documentTitles.termsOfService,
  [ROUTES.login]: documentTitles.login,
};

/**
 * The site: hash routing (spec §2), so every page is served by the same index.html and the
 * worker needs no page routes. Paths the site does not know go home, replacing the history entry.
 *
 * `ssrPath` renders that route without a browser (the build's prerender of the home page). The
 * browser's first render, while it hydrates, also sees "/" (the hash hook's server snapshot),
 * so it matches the prerendered HTML; the real hash is read right after.
 */
export function App({ ssrPath }: { ssrPath?: string }) {
  return (
    <Router hook={useHashLocation} ssrPath={ssrPath}>
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
      <Header />
      {/* Focusable from script only: it takes focus after a route change to a page without a heading to focus. */}
      <main id={MAIN_ID} className="site-main" tabIndex={-1}>
        <Switch>
          <Route path={ROUTES.home} component={HomePage} />
          <Route path={ROUTES.privacyPolicy} component={PrivacyPolicyPage} />
          <Route path={ROUTES.termsOfService} component={TermsOfServicePage} />
          <Route path={ROUTES.login} component={LoginPage} />
          <Route>
            <Redirect to={ROUTES.home} replace />
          </Route>
        </Switch>
      </main>
      <Footer />
    </>
  );
}

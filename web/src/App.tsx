import { Redirect, Route, Router, Switch } from "wouter";
import { useHashLocation } from "wouter/use-hash-location";
import { AuthProvider } from "./auth/AuthProvider";
import { Header } from "./components/Header";
import { HomePage } from "./pages/HomePage";
import { LoginPage } from "./pages/LoginPage";

/**
 * The site: hash routing (spec §2), so every page is served by the same index.html and the
 * worker needs no page routes. Paths the site does not know go home, replacing the history entry.
 */
export function App() {
  return (
    <Router hook={useHashLocation}>
      <AuthProvider>
        <Header />
        <main className="site-main">
          <Switch>
            <Route path="/" component={HomePage} />
            <Route path="/login" component={LoginPage} />
            <Route>
              <Redirect to="/" replace />
            </Route>
          </Switch>
        </main>
      </AuthProvider>
    </Router>
  );
}

import { type ComponentType, lazy, Suspense, useEffect } from "react";
import { MAIN_ID, ROUTES } from "../routes";
import { LoadFailed } from "./LoadFailed";

type Pages = Readonly<Record<string, ComponentType>>;

/**
 * Pages that are a chunk of their own, yet prerendered and hydrated like the others: the home
 * page's first-load script then carries neither their code nor their text (the legal pages', about
 * 2 KB gzipped; the sign-in page's), and a deep link still shows the page with the HTML.
 *
 * - The build's server render (entry-server.tsx) loads every chunk before rendering
 *   (preloadAllRoutes), so each page renders in full, synchronously.
 * - The browser (main.tsx), before hydrating a prerendered route, loads that route's chunk
 *   (preloadRoute): the page then renders at once, exactly as prerendered.
 * - Navigating to such a page in the running app loads its chunk then (React.lazy, nothing shown
 *   meanwhile; focus goes to <main>, then to the page's heading once it is in).
 *
 * Once loaded, the page is rendered directly, never through React.lazy, which cannot render a
 * module it has not been asked for yet in a synchronous server render or hydration.
 */
function routeChunk(load: () => Promise<{ PAGES: Pages }>) {
  let pages: Pages | undefined;
  let pending: Promise<Pages> | undefined;
  const preload = (): Promise<Pages> => {
    pending ??= load().then(
      (module) => {
        pages = module.PAGES;
        return pages;
      },
      (error: unknown) => {
        // Not remembered: the next navigation tries again.
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  /** The page of `route` through React.lazy, for a navigation before the chunk is in. */
  const lazyPage = (route: string) =>
    lazy(() =>
      preload().then<{ default: ComponentType }, { default: ComponentType }>(
        (loaded) => ({ default: loaded[route]! }),
        (error: unknown) => {
          console.error(`Could not load the page ${route}.`, error);
          return { default: ReloadFailed };
        },
      ),
    );
  return { preload, loaded: () => pages, lazyPage };
}

type Chunk = ReturnType<typeof routeChunk>;

/** A chunked route's page: itself once its chunk is loaded, else React.lazy's. */
function ChunkPage({ chunk, route, Lazy }: { chunk: Chunk; route: string; Lazy: ComponentType }) {
  const Page = chunk.loaded()?.[route];
  if (Page) return <Page />;
  return (
    <Suspense fallback={null}>
      <Lazy />
      <FocusHeadingOnArrival />
    </Suspense>
  );
}

/**
 * Rendered with a lazily loaded page, so its effect runs when the page is in: the route change
 * focused <main> (the page had no heading yet); the page's heading takes focus now, as it does
 * on every other route change. Focus the visitor moved meanwhile stays where it is.
 */
function FocusHeadingOnArrival() {
  useEffect(() => {
    const main = document.getElementById(MAIN_ID);
    if (main && document.activeElement === main) main.querySelector<HTMLElement>("h1[tabindex]")?.focus({ preventScroll: true });
  }, []);
  return null;
}

/** Offline, or a deploy replaced the files: reloading gets the page (and the current files). */
function ReloadFailed() {
  return <LoadFailed className="container" onRetry={() => location.reload()} />;
}

const legal = routeChunk(() => import("./legal-chunk"));
const signIn = routeChunk(() => import("./login-chunk"));

const LazyPrivacyPolicy = legal.lazyPage(ROUTES.privacyPolicy);
const LazyTermsOfService = legal.lazyPage(ROUTES.termsOfService);

export function PrivacyPolicyRoute() {
  return <ChunkPage chunk={legal} route={ROUTES.privacyPolicy} Lazy={LazyPrivacyPolicy} />;
}

export function TermsOfServiceRoute() {
  return <ChunkPage chunk={legal} route={ROUTES.termsOfService} Lazy={LazyTermsOfService} />;
}

const LazyLogin = signIn.lazyPage(ROUTES.login);

export function LoginRoute() {
  return <ChunkPage chunk={signIn} route={ROUTES.login} Lazy={LazyLogin} />;
}

/** Each chunked route's loader. */
const CHUNKS: Readonly<Record<string, () => Promise<unknown>>> = {
  [ROUTES.privacyPolicy]: legal.preload,
  [ROUTES.termsOfService]: legal.preload,
  [ROUTES.login]: signIn.preload,
};

/** Loads the chunk of `route`'s page; null when the page has none (it is in the app's own script). */
export function preloadRoute(route: string): Promise<unknown> | null {
  return CHUNKS[route]?.() ?? null;
}

/** Loads every chunked page (the build's server render). */
export function preloadAllRoutes(): Promise<unknown> {
  return Promise.all(Object.values(CHUNKS).map((preload) => preload()));
}

/** The site's routes (spec §2); every other path redirects home. */
export const ROUTES = {
  home: "/",
  privacyPolicy: "/privacy-policy",
  termsOfService: "/terms-of-service",
  login: "/login",
  /** "My place": the signed-in joiner's own page (issue 16), loaded as a chunk of its own. */
  me: "/me",
} as const;

/**
 * The anchors of the home page's sections (the contact anchor is named by spec §2). They live here,
 * not in content.ts, so that no module of the app's start depends on the copy: an edit of
 * content.ts is then taken up by the components that show it (React's fast refresh, with their
 * state, in `npm run dev`) instead of reloading the page.
 */
export const SECTION_IDS = {
  hero: "hero",
  features: "features",
  howItWorks: "how-it-works",
  advancedAi: "advanced-ai",
  subjects: "subjects",
  contact: "contact",
  earlyAccess: "early-access",
} as const;

export type SectionId = (typeof SECTION_IDS)[keyof typeof SECTION_IDS];

/** The id of the page's <main>: the skip link's target, and focused when a page has no heading to focus. */
export const MAIN_ID = "main";

// Pure: the start script (./start.ts) imports this module, and a bundler leaves out what it does not use.
const KNOWN_PATHS: ReadonlySet<string> = /* @__PURE__ */ new Set(Object.values(ROUTES));

export function isKnownRoute(path: string): boolean {
  return KNOWN_PATHS.has(path);
}

/**
 * The ids a plain fragment may name on the home page: its sections and <main> (the skip link's
 * target). They are the site's section links: /#contact is the home page at its contact section.
 */
export const HOME_ANCHORS: readonly string[] = [...Object.values(SECTION_IDS), MAIN_ID];

const HOME_ANCHOR_SET: ReadonlySet<string> = new Set(HOME_ANCHORS);

/**
 * The home page anchor a hash names ("#contact" -> "contact"), or null. Only a bare id counts:
 * "#/contact" is a path, and an unknown one.
 */
export function anchorOfHash(hash: string): string | null {
  const id = hash.replace(/^#/, "");
  return HOME_ANCHOR_SET.has(id) ? id : null;
}

/**
 * The route a hash shows: "#/login" and "#login" are "/login" (wouter's hash location reads them
 * so), "" and "#" are "/", and a home page anchor ("#contact") is "/", the page that holds it.
 * Whatever loads or hydrates a page must read the address with this rule.
 */
export function routeOfHash(hash: string): string {
  if (anchorOfHash(hash) !== null) return ROUTES.home;
  // A query ("#/login?next=/admin/") is the page's to read: the route is the path before it.
  return `/${hash.replace(/^#?\/?/, "").replace(/\?.*$/, "")}`;
}

/** The operator console: a page of its own (not a hash route), which signs in through /login. */
export const CONSOLE_PATH = "/admin/";

/** The sign-in page's address that comes back to `returnPath` once signed in (see returnPathOfHash). */
export function loginHref(returnPath: string): string {
  return `/#${ROUTES.login}?next=${encodeURIComponent(returnPath)}`;
}

/**
 * Where sign-in goes once done: the `next` of the address's query ("#/login?next=%2Fadmin%2F")
 * when it is on the allow-list (the console, or a page of the site other than sign-in itself),
 * otherwise "My place", the page signing in is for (issue 22 refines spec §4's "redirect to /":
 * a student landed on the home page, with My place out of sight). An absolute address,
 * "//elsewhere", "javascript:" or any path not listed goes there too: a link to the sign-in page
 * must not send a visitor off the site.
 */
export function returnPathOfHash(hash: string): string {
  const query = hash.indexOf("?");
  const next = query === -1 ? null : new URLSearchParams(hash.slice(query + 1)).get("next");
  if (next === CONSOLE_PATH) return next;
  return next !== null && next !== ROUTES.login && isKnownRoute(next) ? next : ROUTES.me;
}

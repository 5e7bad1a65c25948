/** The site's routes (spec §2); every other path redirects home. */
export const ROUTES = {
  home: "/",
  privacyPolicy: "/privacy-policy",
  termsOfService: "/terms-of-service",
  login: "/login",
} as const;

const KNOWN_PATHS: ReadonlySet<string> = new Set(Object.values(ROUTES));

export function isKnownRoute(path: string): boolean {
  return KNOWN_PATHS.has(path);
}

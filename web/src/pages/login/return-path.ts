import { CONSOLE_PATH } from "../../routes";

/**
 * Goes to where sign-in returns (returnPathOfHash in ../../routes.ts): the console is a page of
 * its own, loaded in place of this one (`load`: a test's stand-in, as jsdom loads no pages); a
 * page of the site is a route, navigated to.
 */
export function goToReturnPath(
  path: string,
  navigate: (to: string) => void,
  load: (to: string) => void = (to) => window.location.assign(to),
): void {
  if (path === CONSOLE_PATH) load(path);
  else navigate(path);
}

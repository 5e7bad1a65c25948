import { noScript } from "../content";

/**
 * Shown only by a browser that runs no JavaScript (<noscript>): the page is readable and its
 * forms post without it, but signing in cannot work. The build puts it at the top of the page,
 * outside the app's root: with JavaScript on it is inert text React never sees. A landmark of
 * its own (a named <aside>), so no content of the page sits outside one.
 */
export function NoScriptNote() {
  return (
    <noscript>
      <aside className="noscript-note" aria-label={noScript.label}>
        <p>{noScript.signIn}</p>
      </aside>
    </noscript>
  );
}

import type { ReactNode } from "react";
import { AdminHeader } from "./AdminHeader";
import { admin } from "./content";
import { LOGIN_URL } from "./session";
import type { View } from "./use-console-view";
import { ViewHeading } from "./ViewHeading";

/**
 * The views before the console, each one panel under the brand: the check of who is signed in,
 * signed out (the way to sign in), not authorised (the way out), or why the console could not
 * start (with a way to try again).
 */
export function Gate({
  view,
  mainId,
  focusHeading,
  signOutButton,
  signOutError,
  onRetry,
}: {
  view: Exclude<View, { name: "console" }>;
  mainId: string;
  focusHeading: boolean;
  signOutButton: ReactNode;
  signOutError: string | null;
  onRetry: () => void;
}) {
  return (
    <>
      <AdminHeader
        mainId={mainId}
        side={
          <a className="admin-header__link" href="/">
            {admin.backToSite}
          </a>
        }
      />
      <main id={mainId} tabIndex={-1} className="admin-main admin-main--narrow">
        {view.name === "checking" && (
          <div className="panel">
            <h1 className="visually-hidden">{admin.title}</h1>
            <p role="status" className="checking">
              {admin.checking}
            </p>
          </div>
        )}
        {view.name === "signedOut" && (
          <div className="panel">
            <ViewHeading focus={focusHeading}>{admin.signedOut.title}</ViewHeading>
            {view.sessionEnded && (
              <p role="status" className="notice">
                {admin.signedOut.sessionEnded}
              </p>
            )}
            <p>{admin.signedOut.text}</p>
            <p>
              <a className="button button--primary" href={LOGIN_URL}>
                {admin.signedOut.link}
              </a>
            </p>
            <p className="muted">{admin.signedOut.afterwards}</p>
          </div>
        )}
        {view.name === "notAuthorised" && (
          <div className="panel">
            <ViewHeading focus={focusHeading}>{admin.notAuthorised.title}</ViewHeading>
            <p>{admin.notAuthorised.text(view.email)}</p>
            <p className="muted">{admin.notAuthorised.help}</p>
            <p>{signOutButton}</p>
            {signOutError && (
              <p role="alert" className="error">
                {signOutError}
              </p>
            )}
          </div>
        )}
        {view.name === "failed" && (
          <div className="panel">
            <ViewHeading focus={focusHeading}>{admin.failed.title}</ViewHeading>
            <p role="alert" className="error">
              {view.message}
            </p>
            <p>
              <button type="button" className="button button--primary" onClick={onRetry}>
                {admin.tryAgain}
              </button>
            </p>
          </div>
        )}
      </main>
    </>
  );
}

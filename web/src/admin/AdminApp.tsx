import { useEffect, useMemo } from "react";
import { type AdminApi, createAdminApi } from "./api";
import { Console } from "./Console";
import { admin } from "./content";
import { ConsoleContext } from "./context";
import { Gate } from "./Gate";
import { sessionTokens } from "./session";
import { useConsoleView, type View } from "./use-console-view";

/** The id of the page's <main>, the skip link's target. */
const MAIN_ID = "console";

/**
 * The console's page: the console for an operator, or one of the views before it (./Gate.tsx);
 * ./use-console-view.ts decides which. The tab's title says which view it is.
 */
export function AdminApp({ api: givenApi }: { api?: AdminApi } = {}) {
  const api = useMemo(() => givenApi ?? createAdminApi(sessionTokens), [givenApi]);
  const { view, focusHeading, context, retry, setStats, signingOut } = useConsoleView(api);

  useEffect(() => {
    // The console itself (and the check before it) is the page's own title; other views say what they are first.
    const titles: Record<View["name"], string | null> = {
      checking: null,
      signedOut: admin.signedOut.title,
      notAuthorised: admin.notAuthorised.title,
      failed: admin.failed.title,
      console: null,
    };
    const title = titles[view.name];
    document.title = title ? `${title} · ${admin.documentTitle}` : admin.documentTitle;
  }, [view.name]);

  const signOutButton = (
    <button type="button" className="button button--small" onClick={signingOut.run} disabled={signingOut.busy}>
      {signingOut.busy ? admin.signingOut : admin.signOut}
    </button>
  );

  if (view.name === "console") {
    return (
      <ConsoleContext.Provider value={context}>
        <Console
          email={view.email}
          stats={view.stats}
          onStats={setStats}
          signOutButton={signOutButton}
          signOutError={signingOut.error}
          focusHeading={focusHeading}
          mainId={MAIN_ID}
        />
      </ConsoleContext.Provider>
    );
  }
  return (
    <Gate
      view={view}
      mainId={MAIN_ID}
      focusHeading={focusHeading}
      signOutButton={signOutButton}
      signOutError={signingOut.error}
      onRetry={retry}
    />
  );
}

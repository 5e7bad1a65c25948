import type { AdminStats } from "@shared/admin";
import { useCallback, useState, type ReactNode } from "react";
import { AdminHeader } from "./AdminHeader";
import { admin } from "./content";
import { useConsole } from "./context";
import { Breakdowns } from "./sections/Breakdowns";
import { Campaigns } from "./sections/Campaigns";
import { Erasure } from "./sections/Erasure";
import { Integrations } from "./sections/Integrations";
import { MessagesSection, WaitlistSection } from "./sections/Lists";
import { Notifications } from "./sections/Notifications";
import { WaitingJoins } from "./sections/WaitingJoins";
import { Overview } from "./sections/Overview";
import { Referrals } from "./sections/Referrals";
import { SignupsChart } from "./sections/SignupsChart";
import { ViewHeading } from "./ViewHeading";

/** The ids of the console's sections, which the section links name. */
export const SECTIONS = {
  overview: "overview",
  referrals: "referrals",
  signups: "signups",
  delivery: "notifications",
  sources: "sources",
  campaigns: "campaigns",
  waitlist: "waitlist",
  messages: "messages",
  erasure: "erasure",
  integrations: "integrations",
} as const;

type Props = {
  email: string | null;
  stats: AdminStats;
  onStats: (stats: AdminStats) => void;
  signOutButton: ReactNode;
  signOutError: string | null;
  focusHeading: boolean;
  mainId: string;
};

/**
 * The console for an operator: who is signed in and the way out, links to its sections, and the
 * sections. The figures (overview, referrals, chart, breakdowns, notifications) come from one stats call,
 * made again by Refresh, after a retry, an erasure and an action on an entry; the campaigns, the lists and the
 * erasure make their own calls.
 */
export function Console({ email, stats, onStats, signOutButton, signOutError, focusHeading, mainId }: Props) {
  const { api, report } = useConsole();
  // Bumped after an erasure or an action on an entry: the lists load their current page again.
  const [dataVersion, setDataVersion] = useState(0);

  /** Loads the figures again; the message of a failure (null: done, or the page changed view). */
  const refreshStats = useCallback(async (): Promise<string | null> => {
    try {
      onStats(await api.stats());
      return null;
    } catch (error) {
      return report(error);
    }
  }, [api, onStats, report]);

  const afterChange = useCallback(() => {
    setDataVersion((version) => version + 1);
    void refreshStats();
  }, [refreshStats]);

  const links: [string, string][] = [
    [SECTIONS.overview, admin.nav.overview],
    [SECTIONS.referrals, admin.nav.referrals],
    [SECTIONS.signups, admin.nav.signups],
    [SECTIONS.delivery, admin.nav.delivery],
    [SECTIONS.sources, admin.nav.sources],
    [SECTIONS.campaigns, admin.nav.campaigns],
    [SECTIONS.integrations, admin.nav.integrations],
    [SECTIONS.waitlist, admin.nav.waitlist],
    [SECTIONS.messages, admin.nav.messages],
    [SECTIONS.erasure, admin.nav.erasure],
  ];

  return (
    <>
      <AdminHeader
        mainId={mainId}
        side={
          <div className="admin-user">
            {email && <p className="admin-user__email">{admin.signedInAs(email)}</p>}
            {signOutButton}
          </div>
        }
      >
        {signOutError && (
          <p role="alert" className="error admin-header__error">
            {signOutError}
          </p>
        )}
        <nav className="admin-nav" aria-label={admin.nav.label}>
          <ul>
            {links.map(([id, label]) => (
              <li key={id}>
                <a href={`#${id}`}>{label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </AdminHeader>
      <main id={mainId} tabIndex={-1} className="admin-main">
        <ViewHeading focus={focusHeading} className="admin-title">
          {admin.title}
        </ViewHeading>
        <Overview id={SECTIONS.overview} stats={stats} refresh={refreshStats} />
        <Referrals id={SECTIONS.referrals} stats={stats} />
        <SignupsChart id={SECTIONS.signups} byDay={stats.waitlist.byDay} />
        <Notifications id={SECTIONS.delivery} stats={stats.notifications} failed={stats.failedNotifications} refresh={refreshStats} />
        <WaitingJoins id="waiting-joins" />
        <Breakdowns id={SECTIONS.sources} stats={stats} />
        <Campaigns id={SECTIONS.campaigns} />
        <Integrations id={SECTIONS.integrations} />
        <WaitlistSection id={SECTIONS.waitlist} dataVersion={dataVersion} onChanged={afterChange} />
        <MessagesSection id={SECTIONS.messages} dataVersion={dataVersion} />
        <Erasure id={SECTIONS.erasure} onErased={afterChange} />
      </main>
      <footer className="admin-footer">
        <a href="/">{admin.backToSite}</a>
      </footer>
    </>
  );
}

import type { AdminStats } from "@shared/admin";
import { useState } from "react";
import { admin } from "../content";
import { formatCount } from "../format";
import { Children } from "./Children";
import { Funnel } from "./Funnel";
import { MailDeadLetters } from "./MailDeadLetters";
import { Retention } from "./Retention";
import { BusyButton, Messages, Section } from "./Section";

/** The counts at a glance, the way from joining to an invitation, and the way to load them again. */
export function Overview({ id, stats, refresh }: { id: string; stats: AdminStats; refresh: () => Promise<string | null> }) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const text = admin.overview;

  async function onRefresh() {
    setBusy(true);
    setStatus(null);
    setError(null);
    const failure = await refresh();
    setBusy(false);
    if (failure) setError(failure);
    else setStatus(text.refreshed);
  }

  const figures: [label: string, value: number][] = [
    [text.total, stats.waitlist.total],
    [text.last24h, stats.waitlist.last24h],
    [text.last7d, stats.waitlist.last7d],
    [text.submissions, stats.submissions.total],
    [text.undelivered, stats.notifications.undelivered],
  ];

  return (
    <Section
      id={id}
      title={text.title}
      actions={
        <BusyButton className="button button--small" onClick={onRefresh} busy={busy} busyLabel={admin.loading}>
          {text.refresh}
        </BusyButton>
      }
    >
      <dl className="figures">
        {figures.map(([label, value]) => (
          <div key={label} className={label === text.undelivered && value > 0 ? "figure figure--warning" : "figure"}>
            <dt>{label}</dt>
            <dd>{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
      <p
        className={
          stats.visitorMail.sentToday >= stats.visitorMail.budget ? "overview__mail overview__mail--reached" : "muted overview__mail"
        }
      >
        {text.visitorMail(stats.visitorMail)}
      </p>
      <MailDeadLetters count={stats.mailDeadLetters} />
      <Funnel funnel={stats.funnel} />
      <Children ages={stats.ages} parents={stats.parents} />
      <Retention retention={stats.retention} />
      <Messages status={status} error={error} />
    </Section>
  );
}

import type { AdminStats } from "@shared/admin";
import { useState } from "react";
import { admin, formatTime } from "../content";
import { useConsole } from "../context";
import { BusyButton, Messages, Section } from "./Section";

/**
 * Delivery of the team's notification e-mails: how many wait, since when, and "Retry now"
 * (POST /api/admin/notifications/retry), which makes every waiting one due at the next run;
 * its answer is announced, and the figures are loaded again.
 */
export function Notifications({
  id,
  stats,
  refresh,
}: {
  id: string;
  stats: AdminStats["notifications"];
  refresh: () => Promise<string | null>;
}) {
  const { api, report } = useConsole();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const text = admin.delivery;

  async function retry() {
    setBusy(true);
    setStatus(null);
    setError(null);
    try {
      const { requeued } = await api.retryNotifications();
      setStatus(text.requeued(requeued));
      setBusy(false);
      const failure = await refresh();
      if (failure) setError(failure);
    } catch (failure) {
      setBusy(false);
      setError(report(failure));
    }
  }

  return (
    <Section id={id} title={text.title}>
      <p>{text.intro}</p>
      <p className={stats.undelivered > 0 ? "delivery delivery--waiting" : "delivery delivery--done"}>
        {stats.undelivered === 0
          ? text.allDelivered
          : text.undelivered(stats.undelivered, stats.oldestUndeliveredAt ? formatTime(stats.oldestUndeliveredAt) : null)}
      </p>
      <p>
        <BusyButton className="button button--primary" onClick={retry} busy={busy} busyLabel={text.retrying}>
          {text.retry}
        </BusyButton>
      </p>
      <Messages status={status} error={error} />
    </Section>
  );
}

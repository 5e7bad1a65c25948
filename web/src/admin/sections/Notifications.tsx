import type { AdminStats } from "@shared/admin";
import { useState } from "react";
import { admin } from "../content";
import { formatTime } from "../format";
import { useConsole } from "../context";
import { BusyButton, Messages, Section } from "./Section";

/**
 * Delivery of the team's notification e-mails: how many wait, since when, how many of them
 * simply wait for the digest and how many failed (with the next try), and "Retry now" (POST
 * /api/admin/notifications/retry), which makes every waiting one due at the next run; its answer
 * is announced, and the figures are loaded again. With nothing waiting it is disabled, and says why.
 */
export function Notifications({
  id,
  stats,
  failed: failedStats,
  refresh,
}: {
  id: string;
  stats: AdminStats["notifications"];
  failed: AdminStats["failedNotifications"] | undefined;
  refresh: () => Promise<string | null>;
}) {
  const { api, report } = useConsole();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const text = admin.delivery;
  const nothingWaits = stats.undelivered === 0;
  // Absent only from an answer of an older worker: then nothing is known to have failed.
  const failed = Math.min(failedStats?.count ?? 0, stats.undelivered);
  const nextTry = failedStats?.nextAttemptAt ? formatTime(failedStats.nextAttemptAt) : null;
  const hintId = `${id}-retry-hint`;

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
      {!nothingWaits && <p>{text.split(stats.undelivered - failed, failed, nextTry)}</p>}
      <p>
        <BusyButton
          className="button button--primary"
          onClick={retry}
          busy={busy}
          busyLabel={text.retrying}
          // aria-disabled, so focus stays on it when a retry leaves nothing waiting.
          inactive={nothingWaits && !busy}
          describedBy={nothingWaits ? hintId : undefined}
        >
          {text.retry}
        </BusyButton>
      </p>
      {nothingWaits && (
        <p id={hintId} className="muted">
          {text.nothingWaits}
        </p>
      )}
      <Messages status={status} error={error} />
    </Section>
  );
}

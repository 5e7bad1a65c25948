import type { CampaignJson, DeadLetter } from "@shared/campaigns";
import { useEffect, useState } from "react";
import { admin } from "../content";
import { formatCount, formatTime } from "../format";
import { useConsole } from "../context";
import { RetryTable } from "./RetryTable";
import { Messages, Value } from "./Section";

/**
 * The campaign's dead letters (recipients whose message failed every retry: GET …/dead-letters),
 * each with "Retry", and "Retry all" (POST …/dead-letters/retry), which put them back in the
 * queue. Loaded again whenever the campaign's count of them changes.
 */
export function CampaignsDeadLetters({ campaign, onCampaign }: { campaign: CampaignJson; onCampaign: (campaign: CampaignJson) => void }) {
  const { api, report } = useConsole();
  const text = admin.campaigns.deadLetters;
  const [letters, setLetters] = useState<DeadLetter[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const count = campaign.progress.dead_lettered;
  const id = campaign.id;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a changed count asks for the list again.
  useEffect(() => {
    let current = true;
    api.deadLetters(id).then(
      (answer) => current && setLetters(answer.dead_letters),
      (failure: unknown) => current && setError(report(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, report, id, count]);

  async function retry(which: number | "all") {
    if (busy !== null || !letters) return;
    setBusy(String(which));
    setError(null);
    setStatus(null);
    try {
      const next = await api.retryDeadLetters(id, which === "all" ? undefined : [which]);
      const retried = which === "all" ? letters.length : 1;
      setLetters((list) => (list ?? []).filter((letter) => which !== "all" && letter.recipient_id !== which));
      setStatus(text.retried(retried));
      onCampaign(next);
    } catch (failure) {
      setError(report(failure));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="campaign__part dead-letters">
      <h4>
        {text.title} ({formatCount(count)})
      </h4>
      <p>{text.intro}</p>
      <Messages status={letters === null && !error ? text.loading : status} error={error} />
      {letters && letters.length === 0 && <p className="empty">{text.none}</p>}
      {letters && letters.length > 0 && (
        <RetryTable
          id={`dead-letters-${id}`}
          caption={text.caption}
          columns={[
            { label: text.columns.email },
            { label: text.columns.attempts, numeric: true },
            { label: text.columns.error },
            { label: text.columns.when },
          ]}
          rows={letters}
          keyOf={(letter) => String(letter.recipient_id)}
          cells={(letter) => (
            <>
              <th scope="row" className="cell-email">
                {letter.email ?? <span className="muted">{text.erased}</span>}
              </th>
              <td className="numeric">{formatCount(letter.attempts)}</td>
              <td className="cell-message">
                <Value>{letter.last_error}</Value>
              </td>
              <td className="cell-time">{formatTime(letter.dead_lettered_at)}</td>
            </>
          )}
          retryName={(letter) => text.retryOne(letter.email ?? text.erased)}
          words={text}
          busy={busy}
          onRetry={(letter) => void retry(letter === "all" ? "all" : letter.recipient_id)}
        />
      )}
    </div>
  );
}

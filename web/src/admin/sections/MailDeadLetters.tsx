import type { MailDeadLetterJson, MailKind } from "@shared/mail-queue";
import { useEffect, useState } from "react";
import { useConsole } from "../context";
import { formatCount, formatTime } from "../format";
import { RetryTable } from "./RetryTable";
import { Messages, Value } from "./Section";

/** The words of the mail dead letters' part of the overview. */
const TEXT = {
  title: "E-mails that failed every retry",
  intro:
    "The mail queue could not record these e-mails' batch through all its retries (the database was unavailable). They are still unsent; the cron sends them again when due, or retry them now.",
  caption: "E-mails in the mail queue's dead letters",
  loading: "Loading the e-mails that failed…",
  columns: { kind: "E-mail", row: "Row", error: "Last error", when: "Failed at" },
  kinds: {
    joiner: "Joiner's confirmation or welcome",
    waitlist: "Team notification (waitlist)",
    form: "Team notification (form)",
    parent: "Parent's consent request",
  } satisfies Record<MailKind, string>,
  retry: "Retry",
  retryOne: (kind: string, row: number) => `Retry the ${kind.toLowerCase()} of row ${row}`,
  retryAll: "Retry all",
  retrying: "Retrying…",
  retried: (n: number) => `${formatCount(n)} ${n === 1 ? "e-mail" : "e-mails"} back on the mail queue.`,
};

const keyOf = (letter: Pick<MailDeadLetterJson, "kind" | "row_id">) => `${letter.kind}-${letter.row_id}`;

/**
 * The mail queue's dead letters (GET /api/admin/mail/dead-letters), shown when the stats count
 * any: kind, row, error, time, each with "Retry", and "Retry all" (POST …/dead-letters/retry),
 * which put them back on the mail queue.
 */
export function MailDeadLetters({ count }: { count: number | undefined }) {
  const { api, report } = useConsole();
  const [letters, setLetters] = useState<MailDeadLetterJson[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const any = (count ?? 0) > 0;

  useEffect(() => {
    if (!any) return;
    let current = true;
    api.mailDeadLetters().then(
      (answer) => current && setLetters(answer.dead_letters),
      (failure: unknown) => current && setError(report(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, report, any]);

  if (!any) return null;

  async function retry(which: MailDeadLetterJson | "all") {
    if (busy !== null || !letters) return;
    setBusy(which === "all" ? "all" : keyOf(which));
    setError(null);
    setStatus(null);
    try {
      const answer = await api.retryMailDeadLetters(which === "all" ? undefined : [{ kind: which.kind, row_id: which.row_id }]);
      setLetters((list) => (which === "all" ? [] : (list ?? []).filter((letter) => keyOf(letter) !== keyOf(which))));
      setStatus(TEXT.retried(answer.requeued));
    } catch (failure) {
      setError(report(failure));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="mail-dead-letters">
      <h3>
        {TEXT.title} ({formatCount(count ?? 0)})
      </h3>
      <p>{TEXT.intro}</p>
      <Messages status={letters === null && !error ? TEXT.loading : status} error={error} />
      {letters && letters.length > 0 && (
        <RetryTable
          id="mail-dead-letters"
          caption={TEXT.caption}
          columns={[
            { label: TEXT.columns.kind },
            { label: TEXT.columns.row, numeric: true },
            { label: TEXT.columns.error },
            { label: TEXT.columns.when },
          ]}
          rows={letters}
          keyOf={keyOf}
          cells={(letter) => (
            <>
              <th scope="row">{TEXT.kinds[letter.kind]}</th>
              <td className="numeric">{letter.row_id}</td>
              <td className="cell-message">
                <Value>{letter.error}</Value>
              </td>
              <td className="cell-time">{formatTime(letter.dead_lettered_at)}</td>
            </>
          )}
          retryName={(letter) => TEXT.retryOne(TEXT.kinds[letter.kind], letter.row_id)}
          words={TEXT}
          busy={busy}
          onRetry={(letter) => void retry(letter)}
        />
      )}
    </div>
  );
}

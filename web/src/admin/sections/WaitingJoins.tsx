import type { DeadJoinJson, JoinsReport } from "@shared/joins";
import { useCallback, useEffect, useState } from "react";
import { formatTime } from "../format";
import { joins as text } from "../joins-content";
import { useConsole } from "../context";
import { RetryTable } from "./RetryTable";
import { Messages, Section } from "./Section";

/**
 * The joins waiting on the joins queue for the database (GET /api/admin/joins): how many and
 * since when, and the dead ones (the queue gave up after its retries), each with "Retry" and
 * "Retry all" (POST /api/admin/joins/retry), which put them back on the queue.
 */
export function WaitingJoins({ id }: { id: string }) {
  const { api, report } = useConsole();
  const [joins, setJoins] = useState<JoinsReport | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    () =>
      api.waitingJoins().then(
        (answer) => setJoins(answer),
        (failure: unknown) => setError(report(failure)),
      ),
    [api, report],
  );

  useEffect(() => {
    void load();
  }, [load]);

  async function retry(which: DeadJoinJson["id"] | "all") {
    if (busy !== null || !joins) return;
    setBusy(which);
    setError(null);
    setStatus(null);
    try {
      const { retried, audited } = await api.retryJoins(which === "all" ? undefined : [which]);
      setStatus(audited ? text.dead.retried(retried) : `${text.dead.retried(retried)} ${text.dead.notAudited}`);
      await load();
    } catch (failure) {
      setError(report(failure));
    } finally {
      setBusy(null);
    }
  }

  const dead = joins?.dead_joins ?? [];
  return (
    <Section id={id} title={text.title}>
      <p>{text.intro}</p>
      {joins && (
        <p className={joins.waiting > 0 ? "delivery delivery--waiting" : "delivery delivery--done"}>
          {!joins.known ? text.unknown : joins.waiting === 0 ? text.none : text.waiting(joins.waiting, joins.oldest_at)}
        </p>
      )}
      <Messages status={joins === null && !error ? text.loading : status} error={error} />
      {joins && (
        <>
          <h3>{text.dead.title}</h3>
          {dead.length === 0 && <p className="empty">{text.dead.none}</p>}
          {dead.length > 0 && (
            <RetryTable
              id={`${id}-dead`}
              caption={text.dead.caption}
              columns={[
                { label: text.dead.columns.email },
                { label: text.dead.columns.source },
                { label: text.dead.columns.joined },
                { label: text.dead.columns.died },
              ]}
              rows={dead}
              keyOf={(join) => join.id}
              cells={(join) => (
                <>
                  <th scope="row" className="cell-email">
                    {join.email}
                  </th>
                  <td>{join.kind === "parent" ? text.dead.parentRequest : (join.source ?? "")}</td>
                  <td className="cell-time">{formatTime(join.joined_at)}</td>
                  <td className="cell-time">{formatTime(join.died_at)}</td>
                </>
              )}
              retryName={(join) => text.dead.retryOne(join.email)}
              words={text.dead}
              busy={busy}
              onRetry={(join) => void retry(join === "all" ? "all" : join.id)}
            />
          )}
        </>
      )}
    </Section>
  );
}

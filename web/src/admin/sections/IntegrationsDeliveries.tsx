import type { WebhookDeliveryJson } from "@shared/webhooks";
import { useState } from "react";
import { useConsole } from "../context";
import { formatCount, formatTime } from "../format";
import { integrations } from "../integrations-content";
import { resultOf, useIntegrationsReport } from "./IntegrationsShared";
import { RetryTable } from "./RetryTable";
import { Messages, Value } from "./Section";

const text = integrations.deliveries;
const dead = integrations.dead;

/**
 * An endpoint's recent deliveries (newest first: event, webhook id, attempt, status code or error,
 * time) and its dead letters, each with Retry, and Retry all (POST …/dead-letters/retry), in the
 * console's RetryTable as the campaigns' and the mail queue's dead letters.
 */
export function IntegrationsDeliveries({
  endpointId,
  deliveries,
  dead: letters,
  onRetried,
}: {
  endpointId: number;
  deliveries: WebhookDeliveryJson[];
  dead: WebhookDeliveryJson[];
  onRetried: (message: string) => Promise<void>;
}) {
  const { api } = useConsole();
  const report = useIntegrationsReport();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const columns = text.columns;

  async function retry(which: WebhookDeliveryJson | "all") {
    if (busy !== null) return;
    setBusy(which === "all" ? "all" : String(which.id));
    setError(null);
    try {
      const answer = await api.retryWebhookDeadLetters(endpointId, which === "all" ? undefined : [which.id]);
      await onRetried(dead.retried(answer.retried));
    } catch (failure) {
      setError(report(failure));
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      <div className="campaign__part integration__deliveries">
        <h4>{text.title}</h4>
        {deliveries.length === 0 ? (
          <p className="empty">{text.none}</p>
        ) : (
          // biome-ignore lint/a11y/useSemanticElements: a scrolling box inside a section, named by its table's caption.
          <div
            className="table-scroll"
            role="region"
            aria-labelledby={`deliveries-${endpointId}-caption`}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable).
            tabIndex={0}
          >
            <table className="data-table data-table--compact">
              <caption id={`deliveries-${endpointId}-caption`}>{text.caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{columns.event}</th>
                  <th scope="col">{columns.id}</th>
                  <th scope="col" className="numeric">
                    {columns.attempt}
                  </th>
                  <th scope="col">{columns.result}</th>
                  <th scope="col">{columns.time}</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <th scope="row">
                      <code>{delivery.event_type}</code>
                    </th>
                    <td className="cell-webhook-id">
                      <code>{delivery.webhook_id}</code>
                    </td>
                    <td className="numeric">{formatCount(delivery.attempts)}</td>
                    <td className="cell-delivery">
                      {text.status[delivery.status] ?? delivery.status}
                      {resultOf(delivery) && <span className="cell-note">{resultOf(delivery)}</span>}
                      {delivery.status === "pending" && delivery.next_at && (
                        <span className="cell-note">{text.next(delivery.next_at)}</span>
                      )}
                    </td>
                    <td className="cell-time">{formatTime(delivery.delivered_at ?? delivery.last_at ?? delivery.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <div className="campaign__part dead-letters">
        <h4>
          {dead.title} ({formatCount(letters.length)})
        </h4>
        <p>{dead.intro}</p>
        <Messages status={null} error={error} />
        {letters.length === 0 ? (
          <p className="empty">{dead.none}</p>
        ) : (
          <RetryTable
            id={`webhook-dead-${endpointId}`}
            caption={dead.caption}
            columns={[
              { label: dead.columns.event },
              { label: dead.columns.id },
              { label: dead.columns.attempts, numeric: true },
              { label: dead.columns.error },
              { label: dead.columns.time },
            ]}
            rows={letters}
            keyOf={(letter) => String(letter.id)}
            cells={(letter) => (
              <>
                <th scope="row">
                  <code>{letter.event_type}</code>
                </th>
                <td className="cell-webhook-id">
                  <code>{letter.webhook_id}</code>
                </td>
                <td className="numeric">{formatCount(letter.attempts)}</td>
                <td className="cell-message">
                  <Value>{resultOf(letter)}</Value>
                </td>
                <td className="cell-time">
                  <Value>{letter.last_at ? formatTime(letter.last_at) : null}</Value>
                </td>
              </>
            )}
            retryName={(letter) => dead.retryOne(letter.event_type, letter.webhook_id)}
            words={dead}
            busy={busy}
            onRetry={(letter) => void retry(letter)}
          />
        )}
      </div>
    </>
  );
}

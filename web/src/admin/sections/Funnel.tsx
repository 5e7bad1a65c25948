import type { Funnel as FunnelCounts } from "@shared/admin";
import { useId } from "react";
import { admin } from "../content";
import { formatCount } from "../format";

/**
 * From joining to an invitation (issue 22): each step's count, and under it the counts that
 * explain its difference to the step before (who is still to confirm, who shares an inbox, who
 * unsubscribed or bounced, who is waiting for a wave or held out of waves).
 */
export function Funnel({ funnel }: { funnel: FunnelCounts }) {
  const text = admin.overview.funnel;
  const titleId = useId();
  const steps: [label: string, value: number, note: string][] = [
    // Joined is the overview's first figure: the funnel starts at its first step down.
    [text.confirmed, funnel.confirmed, text.pending(funnel.joined, funnel.pending)],
    [text.inboxes, funnel.inboxes, text.sharedInbox(funnel.confirmed, funnel.inboxes, funnel.sharedInbox)],
    [text.reachable, funnel.reachable, text.suppressed(funnel.unsubscribed, funnel.undeliverable)],
    [text.invited, funnel.invited, text.notInvited(funnel.reachable, funnel.waiting, funnel.held)],
  ];
  return (
    <div className="funnel">
      <h3 id={titleId}>{text.title}</h3>
      <ol className="funnel__steps" aria-labelledby={titleId}>
        {steps.map(([label, value, note]) => (
          <li key={label} className="funnel__step">
            <span className="funnel__label">{label}</span>
            <span className="funnel__count">{formatCount(value)}</span>
            <span className="funnel__note">{note}</span>
          </li>
        ))}
      </ol>
      <p className="muted funnel__about">{text.note}</p>
    </div>
  );
}

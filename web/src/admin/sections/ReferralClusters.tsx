import type { AdminStats } from "@shared/admin";
import { useRef } from "react";
import { admin } from "../content";
import { formatCount } from "../format";
import { useOverflow } from "./use-overflow";

/**
 * How each flagged referrer's referrals cluster (issue 22), under the flagged networks: per
 * network, in time, and how alike their inboxes look, with what that reads like (the worker's
 * rule: worker/features/operator/queries/referral-clusters.ts), so a school reads differently
 * from a ring.
 */
export function ReferralClusters({ id, referrals }: { id: string; referrals: AdminStats["referrals"] }) {
  const text = admin.referrals.clusters;
  const emailOf = new Map(referrals.flagged.map((row) => [row.code, row.email]));
  // The counts below take in voided credits (as the flag does): how many is said with them.
  const voidedOf = new Map((referrals.voided ?? []).map((row) => [row.code, row.total]));
  const rows = referrals.clusters ?? [];
  const scrollRef = useRef<HTMLDivElement>(null);
  // The table takes the section's whole width; only on a narrow screen may it still be wider, said then.
  const overflow = useOverflow(scrollRef, rows);
  if (rows.length === 0) return null;
  const titleId = `${id}-clusters-title`;
  const hintId = `${id}-clusters-hint`;
  return (
    <div className="breakdown breakdown--wide">
      <h3 id={titleId}>{text.title}</h3>
      <p className="muted">{text.intro}</p>
      {overflow && (
        <p className="scroll-hint scroll-hint--shown" id={hintId}>
          {text.scrollHint}
        </p>
      )}
      {/* biome-ignore lint/a11y/useSemanticElements: a scrolling box inside a section, named by its table's heading. */}
      <div
        ref={scrollRef}
        className="table-scroll"
        role="region"
        aria-labelledby={titleId}
        aria-describedby={overflow ? hintId : undefined}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard.
        tabIndex={0}
      >
        <table className="data-table data-table--compact clusters__table" aria-labelledby={titleId}>
          <thead>
            <tr>
              <th scope="col">{text.referrer}</th>
              <th scope="col">{text.networks}</th>
              <th scope="col" className="numeric">
                {text.withinHour}
              </th>
              <th scope="col" className="numeric">
                {text.withinDay}
              </th>
              <th scope="col" className="numeric">
                {text.span}
              </th>
              <th scope="col">{text.alike}</th>
              <th scope="col">{text.reads}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((clusters) => (
              <tr key={clusters.code} className={clusters.reading === "ring" ? "row--flagged" : undefined}>
                <th scope="row">{emailOf.get(clusters.code) ?? clusters.code}</th>
                <td>{text.networkCounts(clusters.byNetwork, voidedOf.get(clusters.code) ?? 0)}</td>
                <td className="numeric">{formatCount(clusters.withinHour)}</td>
                <td className="numeric">{formatCount(clusters.withinDay)}</td>
                <td className="numeric">{text.spanHours(clusters.spanHours)}</td>
                <td>{text.alikeOf(clusters.lookAlike, clusters.total, clusters.domains)}</td>
                <td>{text.reading[clusters.reading ?? "mixed"]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

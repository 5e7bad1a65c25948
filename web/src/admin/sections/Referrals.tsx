import type { AdminStats, Referrer } from "@shared/admin";
import type { ReactNode } from "react";
import { admin } from "../content";
import { formatCount, formatRatio, formatShare } from "../format";
import { Address } from "./Address";
import { ReferralClusters } from "./ReferralClusters";
import { Section } from "./Section";

/**
 * The joiner's journey at a glance: who is still to confirm, the confirmation rate, the confirmed
 * referrals and what they add up to (the viral coefficient), the referrers who brought the most,
 * and those flagged for many referrals from one network (an address the operator already sees
 * in the waitlist; the network itself never reaches the console), with how their referrals
 * cluster (./ReferralClusters.tsx).
 */
export function Referrals({ id, stats }: { id: string; stats: AdminStats }) {
  const text = admin.referrals;
  const { waitlist, referrals } = stats;
  const figures: [label: string, value: string][] = [
    [text.pending, formatCount(waitlist.pending)],
    [text.confirmed, formatCount(waitlist.confirmed)],
    [text.rate, formatShare(waitlist.confirmed, waitlist.total)],
    [text.referrals, formatCount(referrals.confirmed)],
    [text.viral, formatRatio(referrals.viralCoefficient)],
  ];
  const flaggedAny = referrals.flagged.length > 0;
  const voidedOf = new Map((referrals.voided ?? []).map((row) => [row.code, row]));
  return (
    <Section id={id} title={text.title}>
      <dl className="figures">
        {figures.map(([label, value]) => (
          <div key={label} className="figure">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted referrals__note">{text.note}</p>
      <div className="breakdowns breakdowns--referrals">
        <div className="breakdown">
          <h3 id={`${id}-top-title`}>{text.top.title}</h3>
          {referrals.top.length === 0 ? (
            <p className="muted">{text.top.empty}</p>
          ) : (
            <ReferrerTable
              labelledBy={`${id}-top-title`}
              headers={[text.top.email, text.top.code, text.top.count]}
              rows={referrals.top.map((row) => ({ row, counts: [formatCount(row.referrals)] }))}
            />
          )}
        </div>
        <div className={flaggedAny ? "breakdown breakdown--flagged" : "breakdown"}>
          <h3 id={`${id}-flagged-title`}>{text.flagged.title}</h3>
          <p className="muted">{text.flagged.intro(referrals.flagAt)}</p>
          {!flaggedAny ? (
            <p className="muted">{text.flagged.empty(referrals.flagAt)}</p>
          ) : (
            <ReferrerTable
              labelledBy={`${id}-flagged-title`}
              headers={[text.flagged.email, text.flagged.code, text.flagged.fromOne]}
              rows={referrals.flagged.map((row) => ({
                row,
                counts: [text.flagged.withVoided(row.fromOneNetwork, voidedOf.get(row.code)?.fromOneNetwork ?? 0)],
              }))}
            />
          )}
        </div>
        {flaggedAny && <ReferralClusters id={id} referrals={referrals} />}
      </div>
    </Section>
  );
}

/** Referrers as rows: the address (the row's name), the code, then counts. */
function ReferrerTable({
  labelledBy,
  headers,
  rows,
}: {
  labelledBy: string;
  headers: ReactNode[];
  rows: { row: Referrer; counts: string[] }[];
}) {
  const [email, code, ...counts] = headers;
  // Long addresses at large text sizes: the table scrolls sideways in its own region, never the page.
  return (
    // biome-ignore lint/a11y/useSemanticElements: a scrolling box inside a section, named by its table's heading.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable).
    <div className="table-scroll" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      <table className="data-table data-table--compact breakdown__table referrers__table" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">{email}</th>
            <th scope="col" className="referrers__code">
              {code}
            </th>
            {counts.map((header, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed; their order is their identity.
              <th key={index} scope="col" className="numeric">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ row, counts: values }) => (
            <tr key={`${row.code}-${row.email}`}>
              <th scope="row">
                <Address email={row.email} />
              </th>
              <td className="referrers__code">
                <code>{row.code}</code>
              </td>
              {values.map((value, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: as the headers.
                <td key={index} className="numeric">
                  {value}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import type { AdminStats, Breakdown as Counts } from "@shared/admin";
import { admin } from "../content";
import { formatCount, formatShare } from "../format";
import { Section } from "./Section";

/**
 * Where sign-ups come from (form placement, campaign parameters, referring site), and messages
 * by form. Each row's share is of every entry (sign-ups, or messages for the form table), the
 * no-value and "Other" rows included, so a table adds up to 100% and a share never changes with
 * how many values the API names.
 */
export function Breakdowns({ id, stats }: { id: string; stats: AdminStats }) {
  const text = admin.breakdowns;
  const signups = stats.waitlist.total;
  const tables: [key: string, words: { title: string; key: string }, counts: Counts, total: number][] = [
    ["source", text.bySource, stats.waitlist.bySource, signups],
    ["utm-source", text.byUtmSource, stats.waitlist.byUtmSource, signups],
    ["utm-medium", text.byUtmMedium, stats.waitlist.byUtmMedium, signups],
    ["utm-campaign", text.byUtmCampaign, stats.waitlist.byUtmCampaign, signups],
    ["referrer", text.byReferrerHost, stats.waitlist.byReferrerHost, signups],
    ["form", text.byForm, stats.submissions.byForm, stats.submissions.total],
  ];
  return (
    <Section id={id} title={text.title}>
      <p className="muted">{text.shareNote(signups, stats.submissions.total)}</p>
      <div className="breakdowns">
        {tables.map(([key, words, counts, total]) => (
          <Breakdown key={key} id={`${id}-${key}`} title={words.title} keyLabel={words.key} counts={counts} total={total} />
        ))}
      </div>
    </Section>
  );
}

type Row = { key: string; label: string; count: number; muted: boolean };

/**
 * The API's top values, most first, then the entries without a value and the other values
 * together (each only when there are any), so the no-value row is never mistaken for a value a
 * visitor sent (such as the text "(none)"): it is set apart, muted, below the values.
 */
function rowsOf(counts: Counts): Row[] {
  const text = admin.breakdowns;
  const rows: Row[] = counts.top.map((row, index) => ({ key: `value-${index}`, label: row.value, count: row.count, muted: false }));
  if (counts.none > 0) rows.push({ key: "none", label: text.none, count: counts.none, muted: true });
  if (counts.other.count > 0) rows.push({ key: "other", label: text.other(counts.other.values), count: counts.other.count, muted: true });
  return rows;
}

function Breakdown({ id, title, keyLabel, counts, total }: { id: string; title: string; keyLabel: string; counts: Counts; total: number }) {
  const text = admin.breakdowns;
  const rows = rowsOf(counts);
  return (
    <div className="breakdown">
      <h3 id={`${id}-title`}>{title}</h3>
      {rows.length === 0 ? (
        <p className="muted">{text.empty}</p>
      ) : (
        <table className="data-table data-table--compact breakdown__table" aria-labelledby={`${id}-title`}>
          <thead>
            <tr>
              <th scope="col">{keyLabel}</th>
              <th scope="col" className="numeric">
                {text.count}
              </th>
              <th scope="col" className="numeric">
                {text.share}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key}>
                <th scope="row" className={row.muted ? "muted" : undefined}>
                  {row.label}
                </th>
                <td className="numeric">{formatCount(row.count)}</td>
                <td className="numeric">{formatShare(row.count, total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

import { NO_VALUE, type AdminStats } from "@shared/admin";
import { admin, formatCount } from "../content";
import { Section } from "./Section";

/** Where sign-ups come from (form placement, campaign parameters, referring site), and messages by form. */
export function Breakdowns({ id, stats }: { id: string; stats: AdminStats }) {
  const text = admin.breakdowns;
  const tables: [key: string, words: { title: string; key: string }, counts: Record<string, number>][] = [
    ["source", text.bySource, stats.waitlist.bySource],
    ["utm-source", text.byUtmSource, stats.waitlist.byUtmSource],
    ["utm-medium", text.byUtmMedium, stats.waitlist.byUtmMedium],
    ["utm-campaign", text.byUtmCampaign, stats.waitlist.byUtmCampaign],
    ["referrer", text.byReferrerHost, stats.waitlist.byReferrerHost],
    ["form", text.byForm, stats.submissions.byForm],
  ];
  return (
    <Section id={id} title={text.title}>
      <div className="breakdowns">
        {tables.map(([key, words, counts]) => (
          <Breakdown key={key} id={`${id}-${key}`} title={words.title} keyLabel={words.key} counts={counts} />
        ))}
      </div>
    </Section>
  );
}

function Breakdown({ id, title, keyLabel, counts }: { id: string; title: string; keyLabel: string; counts: Record<string, number> }) {
  const text = admin.breakdowns;
  // Most first; the entries without a value last among equals.
  const rows = Object.entries(counts ?? {}).sort(
    ([a, x], [b, y]) => y - x || Number(a === NO_VALUE) - Number(b === NO_VALUE) || a.localeCompare(b),
  );
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
            </tr>
          </thead>
          <tbody>
            {rows.map(([value, count]) => (
              <tr key={value}>
                <th scope="row" className={value === NO_VALUE ? "muted" : undefined}>
                  {value === NO_VALUE ? text.none : value}
                </th>
                <td className="numeric">{formatCount(count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

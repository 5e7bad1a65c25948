import { STATS_DAYS, type AdminStats } from "@shared/admin";
import { admin } from "../content";
import { formatCount, formatDay } from "../format";
import { Section } from "./Section";

type Day = AdminStats["waitlist"]["byDay"][number];

/** The drawing's units: one slot per day, bars as tall as the busiest day. */
const SLOT = 10;
const BAR = 7;
const HEIGHT = 100;

/**
 * Sign-ups per day as a bar chart in inline SVG (no chart library). The SVG is an image named by
 * the heading and the summary (total and busiest day); each bar carries its day and count as a
 * <title> (a tooltip), and the same numbers are a table behind a disclosure. The SVG stretches to
 * the width it is given (preserveAspectRatio="none": only rectangles, no text, to distort);
 * the scale and the first and last days are HTML below and beside it.
 */
export function SignupsChart({ id, byDay }: { id: string; byDay: readonly Day[] }) {
  const text = admin.chart;
  const total = byDay.reduce((sum, day) => sum + day.count, 0);
  const busiest = byDay.reduce<Day | null>((best, day) => (best === null || day.count > best.count ? day : best), null);
  const max = Math.max(1, busiest?.count ?? 0);
  const days = byDay.length || STATS_DAYS;
  const summary = text.summary(total, days, busiest ? { date: formatDay(busiest.date, true), count: busiest.count } : null);
  const width = Math.max(1, byDay.length) * SLOT;
  const summaryId = `${id}-summary`;

  return (
    <Section id={id} title={text.title}>
      <p id={summaryId}>{summary}</p>
      {total === 0 && <p className="muted">{text.empty}</p>}
      <div className="chart">
        <p className="chart__scale" aria-hidden="true">
          {text.scale(max)}
        </p>
        {/* biome-ignore lint/a11y/noSvgWithoutTitle: the chart is named by aria-labelledby (its heading and the summary above); a <title> would repeat the summary. */}
        <svg
          className="chart__svg"
          role="img"
          aria-labelledby={`${id}-title ${summaryId}`}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          preserveAspectRatio="none"
          focusable="false"
        >
          <line className="chart__grid" x1="0" x2={width} y1="0.5" y2="0.5" vectorEffect="non-scaling-stroke" />
          {byDay.map((day, index) => {
            // A day with any sign-up shows at least a sliver; an empty day shows nothing.
            const height = day.count === 0 ? 0 : Math.max(1.5, (day.count / max) * HEIGHT);
            return (
              <g key={day.date} className="chart__day">
                <title>{text.barTitle(formatDay(day.date, true), day.count)}</title>
                <rect className="chart__hit" x={index * SLOT} y="0" width={SLOT} height={HEIGHT} />
                <rect className="chart__bar" x={index * SLOT + (SLOT - BAR) / 2} y={HEIGHT - height} width={BAR} height={height} />
              </g>
            );
          })}
          <line className="chart__axis" x1="0" x2={width} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} vectorEffect="non-scaling-stroke" />
        </svg>
        {byDay.length > 0 && (
          <p className="chart__dates" aria-hidden="true">
            <span>{formatDay(byDay[0]!.date)}</span>
            <span>{formatDay(byDay[byDay.length - 1]!.date)}</span>
          </p>
        )}
      </div>
      <details className="disclosure">
        <summary>{text.showTable}</summary>
        {/* biome-ignore lint/a11y/useSemanticElements: a scrolling box inside a section, named by its table. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable). */}
        <div className="table-scroll table-scroll--short" role="region" aria-labelledby={`${id}-table-caption`} tabIndex={0}>
          <table className="data-table data-table--compact">
            <caption id={`${id}-table-caption`} className="visually-hidden">
              {text.tableCaption}
            </caption>
            <thead>
              <tr>
                <th scope="col">{text.dayColumn}</th>
                <th scope="col" className="numeric">
                  {text.countColumn}
                </th>
              </tr>
            </thead>
            <tbody>
              {byDay.map((day) => (
                <tr key={day.date}>
                  <th scope="row">{formatDay(day.date, true)}</th>
                  <td className="numeric">{formatCount(day.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </Section>
  );
}

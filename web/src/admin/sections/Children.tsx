import type { AdminStats } from "@shared/admin";
import type { AgeBandStored } from "@shared/age";
import { useId } from "react";
import { admin } from "../content";
import { formatTime } from "../format";

/** The bands an entry of one's own is listed under, oldest band last; "under 13" only when such an entry exists. */
const OWN_BANDS = ["13_15", "16_17", "18_plus", "unknown"] as const satisfies readonly AgeBandStored[];

/**
 * The overview's part about students and their parents (issue 23): the waitlist by age band (entries
 * on behalf of a child apart), and the parental requests: waiting, agreed, declined and expired.
 */
export function Children({ ages, parents }: Pick<AdminStats, "ages" | "parents">) {
  const text = admin.overview.children;
  const bandsId = useId();
  const requestsId = useId();
  return (
    <div className="children">
      <h3>{text.title}</h3>
      <h4 id={bandsId}>{text.bandsTitle}</h4>
      <ul aria-labelledby={bandsId}>
        {OWN_BANDS.map((band) => (
          <li key={band}>{text.band(text.bands[band], ages.byBand[band])}</li>
        ))}
        {ages.byBand.under_13 > 0 && <li className="children__warning">{text.ownUnder13(ages.byBand.under_13)}</li>}
        <li>{text.onBehalf(ages.onBehalfOfChild.total, ages.onBehalfOfChild.byBand)}</li>
      </ul>
      <h4 id={requestsId}>{text.requestsTitle}</h4>
      <ul aria-labelledby={requestsId}>
        <li>{text.pending(parents.pending, parents.oldestPendingAt && formatTime(parents.oldestPendingAt))}</li>
        <li>{text.answers("today", parents.today)}</li>
        <li>{text.answers("lastDays", parents.lastDays)}</li>
      </ul>
      <p className="muted">{text.note}</p>
    </div>
  );
}

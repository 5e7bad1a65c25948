import { RETENTION_KINDS, type RetentionStats } from "@shared/retention";
import { useId } from "react";
import { admin } from "../content";

/** The overview's retention schedule (issue 23): each kind's days, and what the cron deleted today and lately. */
export function Retention({ retention }: { retention: RetentionStats }) {
  const text = admin.overview.retention;
  const titleId = useId();
  return (
    <div className="retention">
      <h3 id={titleId}>{text.title}</h3>
      <ul aria-labelledby={titleId}>
        {RETENTION_KINDS.map((kind) => (
          <li key={kind}>{text.line(text.kinds[kind], retention.schedule[kind], retention.today[kind], retention.lastDays[kind])}</li>
        ))}
      </ul>
      <p className="muted">{text.last(retention.lastDeletionDay)}</p>
    </div>
  );
}

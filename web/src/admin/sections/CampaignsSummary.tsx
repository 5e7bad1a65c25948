import type { CampaignJson } from "@shared/campaigns";
import { admin } from "../content";
import { formatCount, formatTime } from "../format";
import { totalOf } from "./CampaignsShared";

/** What a campaign past its draft is: its audience, size, who made it and when, when it sends. */
export function CampaignsSummary({ campaign }: { campaign: CampaignJson }) {
  const text = admin.campaigns.details;
  const rows: [string, string][] = [
    [text.audience, admin.campaigns.audience.describe(campaign.audience)],
    [
      text.size,
      (campaign.status === "sending" || campaign.status === "paused") && !campaign.progress.expansion_done
        ? text.sizeSoFar(totalOf(campaign))
        : formatCount(totalOf(campaign)),
    ],
    [text.created, formatTime(campaign.created_at)],
    [text.createdBy, campaign.created_by],
  ];
  if (campaign.send_at) rows.push([text.sendAt, formatTime(campaign.send_at)]);
  return (
    <dl className="fields campaign__summary">
      {rows.map(([label, value]) => (
        <div className="field" key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

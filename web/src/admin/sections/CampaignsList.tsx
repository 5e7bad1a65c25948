import type { CampaignJson } from "@shared/campaigns";
import { useEffect, useState } from "react";
import { admin } from "../content";
import { formatTime } from "../format";
import { useConsole } from "../context";
import { ScreenHeading, StatusBadge, totalOf } from "./CampaignsShared";
import { Messages, TryAgain } from "./Section";

/**
 * Every campaign, newest first (GET /api/admin/campaigns): its number and subject (which opens
 * it), status, audience and its size, sent of total (a cancelled one's people not sent apart), and
 * when it was created. At narrow widths (or large text) the rows stack as cards (admin.css).
 */
export function CampaignsList({ focus, onOpen }: { focus: number; onOpen: (campaign: CampaignJson) => void }) {
  const { api, report } = useConsole();
  const text = admin.campaigns.list;
  const [campaigns, setCampaigns] = useState<CampaignJson[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads only asks for the list again.
  useEffect(() => {
    let current = true;
    setError(null);
    api.campaigns().then(
      (list) => current && setCampaigns(list.campaigns),
      (failure: unknown) => current && setError(report(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, report, reloads]);

  return (
    <div className="campaign campaigns-list">
      <ScreenHeading focus={focus}>{text.title}</ScreenHeading>
      <p>{admin.campaigns.intro}</p>
      <Messages status={campaigns ? text.loaded(campaigns.length) : error ? null : admin.loading} error={error} />
      {error && <TryAgain onClick={() => setReloads((n) => n + 1)} />}
      {campaigns && campaigns.length === 0 && <p className="empty">{text.empty}</p>}
      {campaigns && campaigns.length > 0 && (
        <p className="scroll-hint" id="campaigns-hint">
          {admin.table.scrollHint}
        </p>
      )}
      {campaigns && campaigns.length > 0 && (
        // biome-ignore lint/a11y/useSemanticElements: a scrolling box inside a section, named by its table's caption.
        <div
          className="table-scroll"
          role="region"
          aria-labelledby="campaigns-caption"
          aria-describedby="campaigns-hint"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable).
          tabIndex={0}
        >
          <table className="data-table campaigns-table">
            <caption id="campaigns-caption">{text.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{text.columns.subject}</th>
                <th scope="col">{text.columns.status}</th>
                <th scope="col">{text.columns.audience}</th>
                <th scope="col" className="numeric">
                  {text.columns.sent}
                </th>
                <th scope="col">{text.columns.created}</th>
              </tr>
            </thead>
            <tbody>
              {campaigns.map((campaign) => (
                <tr key={campaign.id}>
                  <th scope="row" className="cell-subject">
                    <span className="campaign__number">{admin.campaigns.number(campaign.id)}</span>{" "}
                    <button type="button" className="link-button" onClick={() => onOpen(campaign)}>
                      <span className="visually-hidden">{text.open(campaign.subject)}</span>
                      <span aria-hidden="true">{campaign.subject}</span>
                    </button>
                  </th>
                  <td className="cell-status">
                    <StatusBadge status={campaign.status} />
                    {campaign.status === "scheduled" && campaign.send_at && (
                      <span className="cell-note">{admin.campaigns.scheduledFor(formatTime(campaign.send_at))}</span>
                    )}
                  </td>
                  <td className="cell-audience" data-label={text.columns.audience}>
                    {admin.campaigns.audience.describe(campaign.audience)}
                    <span className="cell-note">{admin.campaigns.audience.people(totalOf(campaign))}</span>
                  </td>
                  <td className="numeric cell-sent" data-label={text.columns.sent}>
                    {text.sentOfTotal(campaign.progress.counts.sent, totalOf(campaign))}
                    {campaign.status === "cancelled" && <span className="cell-note">{text.notSent(campaign.progress.cancelled)}</span>}
                  </td>
                  <td className="cell-time" data-label={text.columns.created}>
                    {formatTime(campaign.created_at)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

import type { WavePreview } from "@shared/campaigns";
import { admin } from "../content";
import { formatCount } from "../format";
import { Address } from "./Address";

/**
 * Who an invite wave invites first (issue 22), as the server counted it with the audience
 * (POST …/audience): its first entries in the order the wave draws them, a flagged referrer
 * (the referral review's network flag) and the friends it brought marked, how many flagged
 * referrers the whole wave holds and how many of its entries joined through one (so a wave of
 * only friends never reads as clean), and how many entries held out of waves it skips.
 */
export function CampaignsWavePreview({ wave }: { wave: WavePreview }) {
  const text = admin.campaigns.audience.first;
  return (
    <div className="wave-preview">
      <p className={wave.flagged + wave.flagged_friends > 0 ? "wave-preview__flagged" : undefined}>
        {text.flaggedInWave(wave.flagged, wave.flagged_friends)}
      </p>
      {wave.held > 0 && <p>{text.held(wave.held)}</p>}
      {wave.first.length > 0 && (
        // biome-ignore lint/a11y/useSemanticElements: a scrolling box named by its table's caption.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard.
        <div className="table-scroll" role="region" aria-label={text.caption(wave.first.length)} tabIndex={0}>
          <table className="data-table">
            <caption>{text.caption(wave.first.length)}</caption>
            <thead>
              <tr>
                <th scope="col" className="numeric">
                  {text.columns.place}
                </th>
                <th scope="col">{text.columns.email}</th>
                <th scope="col" className="numeric">
                  {text.columns.referrals}
                </th>
                <th scope="col">{text.columns.flag}</th>
              </tr>
            </thead>
            <tbody>
              {wave.first.map((entry) => (
                <tr
                  key={entry.id}
                  className={entry.flagged_from_one_network !== null || entry.referred_by_flagged ? "row--flagged" : undefined}
                >
                  <td className="numeric">{formatCount(entry.place)}</td>
                  <th scope="row" className="wave-preview__email">
                    <Address email={entry.email} />
                  </th>
                  <td className="numeric">{formatCount(entry.referrals_confirmed)}</td>
                  <td className="wave-preview__flag">
                    {entry.flagged_from_one_network !== null && (
                      <span className="badge badge--held">{text.flaggedReferrer(entry.flagged_from_one_network)}</span>
                    )}
                    {entry.referred_by_flagged && <span className="badge badge--held">{text.flaggedFriend}</span>}
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

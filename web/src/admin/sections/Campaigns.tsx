import type { CampaignJson } from "@shared/campaigns";
import { useEffect, useState } from "react";
import { admin } from "../content";
import { useConsole } from "../context";
import { CampaignsCampaign } from "./CampaignsCampaign";
import { CampaignsList } from "./CampaignsList";
import { OPEN_CAMPAIGN_EVENT } from "./CampaignsShared";
import { Section } from "./Section";

/** Which screen the section shows: the list, or one campaign (null id: a new one, not saved yet). */
type Screen = { name: "list" } | { name: "campaign"; id: number | null; campaign: CampaignJson | null };

/**
 * The console's Campaigns section (issue 17): the list of campaigns, and one campaign at a time:
 * composed and previewed as a draft, then sent (or scheduled), watched while it sends, and its
 * report afterwards. Moving between the screens moves focus to the new screen's heading; leaving a
 * campaign's screen stops its polling (the screen unmounts).
 */
export function Campaigns({ id }: { id: string }) {
  const text = admin.campaigns;
  const [screen, setScreen] = useState<Screen>({ name: "list" });
  // Bumped on every move: the new screen's heading takes focus (not when the console first opens).
  const [focus, setFocus] = useState(0);
  const go = (next: Screen) => {
    setScreen(next);
    setFocus((n) => n + 1);
  };
  const { api, report } = useConsole();
  const [openError, setOpenError] = useState<string | null>(null);

  // Another section (the waitlist's Invited column) opens a campaign by its number.
  useEffect(() => {
    const open = (event: Event) => {
      const campaignId = (event as CustomEvent<number>).detail;
      setOpenError(null);
      api.campaign(campaignId).then(
        (campaign) => {
          setScreen({ name: "campaign", id: campaign.id, campaign });
          setFocus((n) => n + 1);
        },
        (failure: unknown) => setOpenError(report(failure)),
      );
    };
    window.addEventListener(OPEN_CAMPAIGN_EVENT, open);
    return () => window.removeEventListener(OPEN_CAMPAIGN_EVENT, open);
  }, [api, report]);

  return (
    <Section
      id={id}
      title={text.title}
      actions={
        screen.name === "list" ? (
          <button
            type="button"
            className="button button--primary button--small"
            onClick={() => go({ name: "campaign", id: null, campaign: null })}
          >
            {text.newCampaign}
          </button>
        ) : (
          <button type="button" className="button button--small" onClick={() => go({ name: "list" })}>
            {text.back}
          </button>
        )
      }
    >
      {openError && (
        <p role="alert" className="error">
          {openError}
        </p>
      )}
      {screen.name === "list" ? (
        <CampaignsList focus={focus} onOpen={(campaign) => go({ name: "campaign", id: campaign.id, campaign })} />
      ) : (
        <CampaignsCampaign key={screen.id ?? "new"} initial={screen.campaign} focus={focus} />
      )}
    </Section>
  );
}

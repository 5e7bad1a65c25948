import type { CampaignJson } from "@shared/campaigns";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import type { CampaignPreviewAnswer } from "../api";
import { admin } from "../content";
import { useConsole } from "../context";
import { BusyButton, Messages } from "./Section";

const WIDTHS = [
  // Heights that hold a usual e-mail whole, footer (unsubscribe, sender, address) included: the
  // sandboxed frame cannot tell the console its height, so a longer one scrolls inside (said).
  { width: 360, height: 1200, label: admin.campaigns.preview.phone },
  { width: 640, height: 960, label: admin.campaigns.preview.desktop },
] as const;

/**
 * The e-mail as a recipient gets it (POST …/:id/preview): the HTML in two frames, 360 and 640 px
 * wide, of the worker's signed preview page (its own CSP lets the e-mail's inline styles work,
 * which a srcdoc frame under the console's CSP would not); then the plain-text version and the
 * headers. `prepare` saves unsaved changes first and gives the campaign to preview (null: it could not).
 */
export function CampaignsPreview({
  prepare,
  actions,
  said,
  heading = admin.campaigns.preview.check,
}: {
  prepare: () => Promise<CampaignJson | null>;
  /** The part's heading: "Check it before sending" for a draft; the e-mail's for a campaign past that. */
  heading?: string;
  /** More buttons for the same row (a draft's "Send a test to me"), and what they said. */
  actions?: ReactNode;
  said?: { status: string | null; error: string | null };
}) {
  const { api, report } = useConsole();
  const text = admin.campaigns.preview;
  const [preview, setPreview] = useState<CampaignPreviewAnswer | null>(null);
  const [loading, setLoading] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const id = useId();

  useEffect(() => {
    if (shown > 0) headingRef.current?.focus();
  }, [shown]);

  async function show() {
    setLoading(true);
    setError(null);
    setStatus(text.loading);
    try {
      const campaign = await prepare();
      if (!campaign) {
        setStatus(null);
        return;
      }
      setPreview(await api.previewCampaign(campaign.id));
      setStatus(text.ready);
      setShown((n) => n + 1);
    } catch (failure) {
      setStatus(null);
      setError(report(failure));
    } finally {
      setLoading(false);
    }
  }

  return (
    <div className="campaign__part preview">
      <h4>{heading}</h4>
      <div className="button-row">
        <BusyButton className="button" busy={loading} busyLabel={text.loading} onClick={show}>
          {preview ? text.again : text.show}
        </BusyButton>
        {actions}
      </div>
      <Messages status={status} error={error} />
      {said && <Messages status={said.status} error={said.error} />}
      {preview && (
        <>
          <h5 ref={headingRef} tabIndex={-1} className="preview__title">
            {text.title}: {preview.title}
          </h5>
          <p className="hint">{text.expires}</p>
          <p className="hint">{text.scrollInside}</p>
          <div className="preview__frames">
            {WIDTHS.map(({ width, height, label }) => (
              <figure key={width} className={`preview__frame preview__frame--${width}`}>
                <figcaption id={`${id}-${width}`}>{label}</figcaption>
                {/* biome-ignore lint/a11y/useSemanticElements: a box that scrolls a frame wider than a phone, named by its caption. */}
                <div
                  className="preview__scroll"
                  role="region"
                  aria-labelledby={`${id}-${width}`}
                  // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable).
                  tabIndex={0}
                >
                  <iframe
                    src={preview.preview_url}
                    title={text.frameTitle(width)}
                    width={width}
                    height={height}
                    // The e-mail's links open outside the console; nothing in the frame runs script.
                    sandbox="allow-popups allow-popups-to-escape-sandbox"
                    referrerPolicy="no-referrer"
                  />
                </div>
              </figure>
            ))}
          </div>
          <div className="preview__more">
            <div>
              <h5 id={`${id}-text`}>{text.text}</h5>
              {/* biome-ignore lint/a11y/useSemanticElements: the text scrolls in a box of its own, named by its heading. */}
              <div
                className="preview__text"
                role="region"
                aria-labelledby={`${id}-text`}
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable).
                tabIndex={0}
              >
                <pre>{preview.text}</pre>
              </div>
            </div>
            <div>
              <h5>{text.headers}</h5>
              <dl className="fields preview__headers">
                {Object.entries(preview.headers).map(([name, value]) => (
                  <div className="field" key={name}>
                    <dt>{name}</dt>
                    <dd>{value}</dd>
                  </div>
                ))}
              </dl>
            </div>
          </div>
        </>
      )}
    </div>
  );
}

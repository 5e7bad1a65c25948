import { useEffect, useId, useRef, useState } from "react";
import { JOURNEY_TEXT, referralRule, SHARE_TARGETS, shareLinks } from "@shared/journey-text";

type Props = {
  link: string;
  /** What a share says before the link (the API's share.text). */
  text: string;
  boost: number;
  pending: number;
  confirmed: number;
  /** Words in place of "Move up the line" and its rule (someone invited has no line to move up in). */
  heading?: string;
  rule?: string;
};

/**
 * The referral link with a Copy button, the share buttons and the friends it brought: the same
 * box as the confirmation page's (worker/features/waitlist/confirm-page.ts), in the same words. The Web Share
 * API's button shows only where the browser has it (phones, some desktops); the WhatsApp,
 * Telegram, X and e-mail links are there always, for every other browser and for those who
 * prefer them.
 */
export function ShareBox({ link, text, boost, pending, confirmed, heading, rule }: Props) {
  const ids = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  const [copyStatus, setCopyStatus] = useState("");
  const [canShare, setCanShare] = useState(false);
  const links = shareLinks(link, text);

  // Read after the first render: the Web Share API is the browser's to say.
  useEffect(() => setCanShare(typeof navigator.share === "function"), []);

  async function copy() {
    const field = input.current;
    field?.select();
    try {
      if (!navigator.clipboard) throw new Error("No clipboard in this browser.");
      await navigator.clipboard.writeText(link);
      setCopyStatus(JOURNEY_TEXT.copied);
    } catch {
      // Refused (no permission, an older browser): the link is selected for the visitor to copy.
      field?.focus();
      field?.select();
      setCopyStatus(JOURNEY_TEXT.copyFailed);
    }
  }

  function share() {
    // A dismissed share sheet rejects: nothing to say.
    navigator.share({ title: document.title, text, url: link }).catch(() => undefined);
  }

  return (
    <section className="share" aria-labelledby={`${ids}heading`}>
      <h3 id={`${ids}heading`}>{heading ?? JOURNEY_TEXT.shareHeading}</h3>
      {/* No "move up N places" without a boost (a minor's entry: issue 23). */}
      {(rule || boost > 0) && <p>{rule ?? referralRule(boost)}</p>}
      <label htmlFor={`${ids}link`} className="share__label">
        {JOURNEY_TEXT.linkLabel}
      </label>
      <div className="waitlist__row">
        {/* A text area, so the whole link wraps and can be read on a phone. */}
        <textarea
          ref={input}
          id={`${ids}link`}
          className="input waitlist__input share__link"
          rows={2}
          readOnly
          spellCheck={false}
          value={link}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="button button--primary waitlist__submit" onClick={copy}>
          {JOURNEY_TEXT.copy}
        </button>
      </div>
      <p className="share__status" role="status">
        {copyStatus}
      </p>
      {canShare && (
        <button type="button" className="button share__native" onClick={share}>
          {JOURNEY_TEXT.shareButton}
        </button>
      )}
      <p className="share__via">{JOURNEY_TEXT.shareVia}</p>
      <ul className="share__targets">
        {SHARE_TARGETS.map((target) => (
          <li key={target.key}>
            {/* The apps' pages open beside this one; the e-mail link opens the mail program. */}
            <a
              className="button share__target"
              href={links[target.key]}
              {...(target.key === "email" ? {} : { target: "_blank", rel: "noopener noreferrer" })}
            >
              {target.name}
            </a>
          </li>
        ))}
      </ul>
      <dl className="share__friends">
        <div>
          <dt>{JOURNEY_TEXT.friendsPending}</dt>
          <dd>{pending}</dd>
        </div>
        <div>
          <dt>{JOURNEY_TEXT.friendsConfirmed}</dt>
          <dd>{confirmed}</dd>
        </div>
      </dl>
    </section>
  );
}

import type { MeSubscription } from "@shared/me";
import type { Ref } from "react";
import { ME_TEXT } from "./content";
import { Fact, Said, Time } from "./parts";

/**
 * "My place"'s campaign e-mail block: whether the address gets launch news and invitations,
 * since when and why not, and the one button that changes it ("Unsubscribe", "Subscribe again").
 * Someone invited already is promised no invitation: launch news and updates. The page runs the
 * request (its busy state, messages and focus); this only shows them.
 */
export function SubscriptionSection({
  headingId,
  subscription,
  invited,
  disabled,
  pending,
  success,
  error,
  onChange,
  buttonRef,
  successRef,
}: {
  headingId: string;
  subscription: MeSubscription;
  /** An invite wave drew the entry: its invitation went out already. */
  invited: boolean;
  /** Another request is in flight: the button waits. */
  disabled: boolean;
  /** This block's own request is in flight: the button says so. */
  pending: boolean;
  success: string;
  error: string;
  onChange: (subscribed: boolean) => void;
  /** The button and the success message, where the page puts focus once a change is done. */
  buttonRef: Ref<HTMLButtonElement>;
  successRef: Ref<HTMLParagraphElement>;
}) {
  const t = ME_TEXT.subscription;
  const { subscribed } = subscription;
  const reason = subscription.reason ?? "unsubscribed";
  const offText = invited && reason === "unsubscribed" ? t.invited.reason : t.reasons[reason];
  return (
    <section className="me__section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.heading}</h2>
      <dl className="me__facts">
        <Fact label={invited ? t.invited.statusLabel : t.statusLabel} className={subscribed ? "me__status--confirmed" : undefined}>
          {subscribed ? t.on : t.off}
        </Fact>
        {!subscribed && subscription.unsubscribed_at && (
          <Fact label={t.since}>
            <Time iso={subscription.unsubscribed_at} />
          </Fact>
        )}
      </dl>
      <p>{subscribed ? (invited ? t.invited.subscribedText : t.subscribedText) : offText}</p>
      <p>{t.stillSent}</p>
      <button
        ref={buttonRef}
        type="button"
        className={subscribed ? "button" : "button button--primary"}
        onClick={() => onChange(!subscribed)}
        disabled={disabled}
      >
        {subscribed ? (pending ? t.unsubscribing : t.unsubscribe) : pending ? t.subscribing : t.subscribe}
      </button>
      {/* The success line is focused when a change is done, so it is read and the keyboard stays in this block. */}
      <Said success={success} error={error} successRef={successRef} />
    </section>
  );
}

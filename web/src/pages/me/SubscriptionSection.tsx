import type { MeSubscription } from "@shared/me";
import { ME_TEXT } from "./content";

/**
 * "My place"'s campaign e-mail block: whether the address gets launch news and invitations,
 * since when and why not, and the one button that changes it ("Unsubscribe", "Subscribe again").
 * The page runs the request (its busy state and messages); this only shows them.
 */
export function SubscriptionSection({
  headingId,
  subscription,
  disabled,
  pending,
  success,
  error,
  onChange,
  time,
}: {
  headingId: string;
  subscription: MeSubscription;
  /** Another request is in flight: the button waits. */
  disabled: boolean;
  /** This block's own request is in flight: the button says so. */
  pending: boolean;
  success: string;
  error: string;
  onChange: (subscribed: boolean) => void;
  /** How the page shows a time. */
  time: (iso: string) => React.ReactNode;
}) {
  const t = ME_TEXT.subscription;
  const { subscribed } = subscription;
  return (
    <section className="me__section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t.heading}</h2>
      <dl className="me__facts">
        <div>
          <dt>{t.statusLabel}</dt>
          <dd className={subscribed ? "me__status--confirmed" : undefined}>{subscribed ? t.on : t.off}</dd>
        </div>
        {!subscribed && subscription.unsubscribed_at && (
          <div>
            <dt>{t.since}</dt>
            <dd>{time(subscription.unsubscribed_at)}</dd>
          </div>
        )}
      </dl>
      <p>{subscribed ? t.subscribedText : t.reasons[subscription.reason ?? "unsubscribed"]}</p>
      <p>{t.stillSent}</p>
      <button
        type="button"
        className={subscribed ? "button" : "button button--primary"}
        onClick={() => onChange(!subscribed)}
        disabled={disabled}
      >
        {subscribed ? (pending ? t.unsubscribing : t.unsubscribe) : pending ? t.subscribing : t.subscribe}
      </button>
      <p className="message message--success" role="status">
        {success}
      </p>
      <p className="message message--error" role="alert">
        {error}
      </p>
    </section>
  );
}

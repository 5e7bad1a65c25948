import { ATTRIBUTION_FIELDS, type AdminWaitlistEntry, type PersonRecord } from "@shared/admin";
import { fieldLabel } from "@shared/forms";
import type { ReactNode } from "react";
import { admin } from "../content";
import { formatCount, formatTime } from "../format";
import { Value } from "./Section";

/** A stored time, or nothing (shown as a dash). */
const time = (value: string | null | undefined) => (value ? formatTime(value) : null);

/** What is stored about the address, part by part. */
export function ErasureRecord({ record }: { record: PersonRecord }) {
  const text = admin.erasure;
  return (
    <div className="stored">
      <div className="stored__part">
        <h4>{text.waitlistEntry}</h4>
        {record.waitlist ? (
          <>
            <WaitlistEntry entry={record.waitlist} />
            {record.consent && (
              <p className="stored__subhead">
                {text.fields.consent}: {text.consent({ ...record.consent, at: time(record.consent.at) })}
              </p>
            )}
          </>
        ) : (
          <p className="muted">{text.noWaitlistEntry}</p>
        )}
      </div>
      <div className="stored__part">
        <h4>{text.submissions(record.submissions.length)}</h4>
        {record.submissions.length > 0 && (
          <ul className="stored__list">
            {record.submissions.map((submission) => (
              <li key={submission.id}>
                <p className="cell-note">{text.submission(formatTime(submission.created_at))}</p>
                <dl className="fields">
                  {Object.entries(submission.fields).map(([name, value]) => (
                    <Field key={name} label={fieldLabel({ name })}>
                      {typeof value === "string" ? value : JSON.stringify(value)}
                    </Field>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="stored__part">
        <h4>{text.account}</h4>
        {record.user ? (
          <>
            <dl className="fields">
              <Field label={text.fields.email}>{record.user.email}</Field>
              <Field label={text.fields.created_at}>{time(record.user.created_at)}</Field>
              <Field label={text.fields.email_confirmed_at}>{time(record.user.email_confirmed_at)}</Field>
              <Field label={text.fields.last_sign_in_at}>{time(record.user.last_sign_in_at)}</Field>
            </dl>
            <p className="stored__subhead">{text.sessions(record.user.sessions.length)}</p>
            {record.user.sessions.length > 0 && (
              <ul className="stored__list">
                {record.user.sessions.map((session) => (
                  <li key={session.id}>{text.session(formatTime(session.created_at), time(session.refreshed_at ?? session.updated_at))}</li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <p className="muted">{text.noAccount}</p>
        )}
      </div>
      {record.parental_requests.length > 0 && (
        <div className="stored__part">
          <h4>{text.parentalRequests(record.parental_requests.length)}</h4>
          <ul className="stored__list">
            {record.parental_requests.map((request) => (
              <li key={request.created_at}>
                {text.parentalRequest(
                  formatTime(request.created_at),
                  admin.waitlist.ageBands[request.age_band],
                  request.country,
                  time(request.sent_at),
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {record.sign_in_code && (
        <div className="stored__part">
          <h4>{text.otherRecords}</h4>
          <p>
            {text.signInCode(
              formatTime(record.sign_in_code.sent_at),
              formatTime(record.sign_in_code.expires_at),
              record.sign_in_code.usable,
            )}
          </p>
        </div>
      )}
    </div>
  );
}

function WaitlistEntry({ entry }: { entry: AdminWaitlistEntry }) {
  const text = admin.erasure;
  const { fields } = text;
  const notification = entry.email_sent ? admin.notification.sent(time(entry.email_sent_at)) : admin.notification.waiting;
  return (
    <dl className="fields">
      <Field label={fields.email}>{entry.email}</Field>
      <Field label={fields.source}>{entry.source}</Field>
      <Field label={fields.created_at}>{time(entry.created_at)}</Field>
      <Field label={fields.updated_at}>{time(entry.updated_at)}</Field>
      {ATTRIBUTION_FIELDS.map((name) => (
        <Field key={name} label={fields[name]}>
          {entry[name]}
        </Field>
      ))}
      <Field label={fields.status}>{admin.waitlist.status[entry.status]}</Field>
      <Field label={fields.confirmed_at}>{time(entry.confirmed_at)}</Field>
      <Field label={fields.place}>{entry.place === null ? null : admin.waitlist.place(entry.place)}</Field>
      <Field label={fields.referral_code}>{entry.referral_code}</Field>
      <Field label={fields.referred_by}>{entry.referred_by}</Field>
      <Field label={fields.referrals_confirmed}>{formatCount(entry.referrals_confirmed)}</Field>
      <Field label={fields.age_band}>{admin.waitlist.ageBands[entry.age_band]}</Field>
      <Field label={fields.country}>{entry.country}</Field>
      <Field label={fields.on_behalf_of_child}>{text.onBehalf(entry.on_behalf_of_child)}</Field>
      <Field label={fields.email_sent}>{notification}</Field>
    </dl>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="field">
      <dt>{label}</dt>
      <dd>
        <Value>{children}</Value>
      </dd>
    </div>
  );
}

import { ATTRIBUTION_FIELDS, type AdminWaitlistEntry, type ErasureCounts, type PersonRecord } from "@shared/admin";
import { fieldLabel } from "@shared/forms";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { admin } from "../content";
import { formatCount, formatTime } from "../format";
import { useConsole } from "../context";
import { BusyButton, Section, Value } from "./Section";

type Outcome = { kind: "none" } | { kind: "found"; record: PersonRecord } | { kind: "erased"; email: string; counts: ErasureCounts };

/**
 * A data-protection request in three steps: look an address up (POST /api/admin/people/lookup)
 * and see everything stored about it; type the address again (the Erase button works only when
 * it matches); erase (POST /api/admin/people/erase), and see what was erased. Focus follows: to the lookup's result,
 * then to what was erased.
 */
export function Erasure({ id, onErased }: { id: string; onErased: () => void }) {
  const { api, report } = useConsole();
  const text = admin.erasure;
  const [address, setAddress] = useState("");
  const [lookingUp, setLookingUp] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: "none" });
  const [error, setError] = useState<string | null>(null);
  const [typed, setTyped] = useState("");
  const [erasing, setErasing] = useState(false);
  const [eraseError, setEraseError] = useState<string | null>(null);
  const resultRef = useRef<HTMLElement | null>(null);
  const setResult = (element: HTMLElement | null) => {
    resultRef.current = element;
  };
  const [focusResult, setFocusResult] = useState(0);
  const addressId = useId();
  const confirmId = useId();
  const hintId = useId();

  const record = outcome.kind === "found" ? outcome.record : null;
  const matches = record !== null && typed.trim().toLowerCase() === record.email.toLowerCase();
  const nothingStored = record !== null && isEmpty(record);

  useEffect(() => {
    if (focusResult > 0) resultRef.current?.focus();
  }, [focusResult]);

  async function lookUp(event: FormEvent) {
    event.preventDefault();
    if (lookingUp) return;
    const email = address.trim();
    setError(null);
    setEraseError(null);
    if (!email) {
      setError(text.addressRequired);
      return;
    }
    setLookingUp(true);
    try {
      const record = await api.person(email);
      setTyped("");
      setOutcome({ kind: "found", record });
      setFocusResult((n) => n + 1);
    } catch (failure) {
      setOutcome({ kind: "none" });
      setError(report(failure));
    } finally {
      setLookingUp(false);
    }
  }

  async function erase(event: FormEvent) {
    event.preventDefault();
    if (outcome.kind !== "found" || erasing || !matches) return;
    const email = outcome.record.email;
    setErasing(true);
    setEraseError(null);
    try {
      const counts = await api.erase(email);
      setOutcome({ kind: "erased", email, counts });
      setTyped("");
      setFocusResult((n) => n + 1);
      onErased();
    } catch (failure) {
      setEraseError(report(failure));
    } finally {
      setErasing(false);
    }
  }

  return (
    <Section id={id} title={text.title}>
      <p>{text.intro}</p>
      <form className="lookup" onSubmit={lookUp} noValidate>
        <label htmlFor={addressId}>{text.lookupLabel}</label>
        <div className="search__row">
          <input
            id={addressId}
            className="input"
            type="email"
            name="email"
            autoComplete="off"
            spellCheck={false}
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            aria-invalid={error === text.addressRequired || undefined}
            aria-describedby={error ? `${addressId}-error` : undefined}
          />
          <BusyButton type="submit" className="button" busy={lookingUp} busyLabel={text.lookingUp}>
            {text.lookup}
          </BusyButton>
        </div>
      </form>
      <p role="alert" id={`${addressId}-error`} className={error ? "error" : "error error--empty"}>
        {error}
      </p>

      <div role="status" className="erasure__result">
        {outcome.kind === "erased" && (
          <p className="success" tabIndex={-1} ref={setResult}>
            {text.erased(outcome.email, outcome.counts)}
          </p>
        )}
        {record && nothingStored && (
          <p className="notice" tabIndex={-1} ref={setResult}>
            {text.nothingStored(record.email)}
          </p>
        )}
      </div>

      {record && !nothingStored && (
        <div className="person">
          <h3 tabIndex={-1} ref={setResult}>
            {text.storedTitle(record.email)}
          </h3>
          <Stored record={record} />
          <form className="confirm" onSubmit={erase}>
            <label htmlFor={confirmId}>{text.confirmLabel(record.email)}</label>
            <p id={hintId} className="muted">
              {text.confirmHint}
            </p>
            <div className="search__row">
              <input
                id={confirmId}
                className="input"
                type="email"
                name="confirm"
                autoComplete="off"
                spellCheck={false}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                aria-describedby={hintId}
              />
              <BusyButton
                type="submit"
                className="button button--danger"
                busy={erasing}
                busyLabel={text.erasing}
                disabled={!matches}
                describedBy={hintId}
              >
                {text.erase}
              </BusyButton>
            </div>
          </form>
          <p role="alert" className={eraseError ? "error" : "error error--empty"}>
            {eraseError}
          </p>
        </div>
      )}
    </Section>
  );
}

function isEmpty(record: PersonRecord): boolean {
  return record.waitlist === null && record.submissions.length === 0 && record.user === null && record.sign_in_code === null;
}

/** What is stored about the address, part by part. */
function Stored({ record }: { record: PersonRecord }) {
  const text = admin.erasure;
  const time = (value: string | null | undefined) => (value ? formatTime(value) : null);
  return (
    <div className="stored">
      <div className="stored__part">
        <h4>{text.waitlistEntry}</h4>
        {record.waitlist ? <WaitlistEntry entry={record.waitlist} /> : <p className="muted">{text.noWaitlistEntry}</p>}
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
  const { fields } = admin.erasure;
  const time = (value: string | null) => (value ? formatTime(value) : null);
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

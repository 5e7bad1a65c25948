import { type AdminListedEntry, REASON_MAX_LENGTH } from "@shared/admin";
import { createContext, useContext, useEffect, useId, useRef, useState } from "react";
import { admin } from "../content";
import { formatCount, formatTime } from "../format";
import { BusyButton, Value } from "./Section";

/**
 * The waitlist's cells for the operator's actions on one entry (issue 22): holding it out of
 * invite waves or letting it back ("Invite waves"), and voiding the referral credit it gave
 * ("Referred by"); and the Referrals column with how many of an entry's credits were voided.
 * Each action asks first, in the cell, with the operator's reason (the audit trail keeps it);
 * the section (./Lists.tsx) calls the API, says what happened and loads the list again.
 */

export type EntryActionHandlers = {
  /** Resolves true when done (the section said so and reloads), false when refused (the section shows why). */
  hold: (entry: AdminListedEntry, held: boolean, reason: string) => Promise<boolean>;
  voidCredit: (entry: AdminListedEntry, reason: string) => Promise<boolean>;
};

export const EntryActions = createContext<EntryActionHandlers | null>(null);

function useHandlers(): EntryActionHandlers {
  const handlers = useContext(EntryActions);
  if (!handlers) throw new Error("The waitlist's action cells need EntryActions.");
  return handlers;
}

type AskProps = { question: string; yes: string; no: string; onYes: (reason: string) => Promise<boolean>; onNo: () => void };

/** The question of an action, the reason asked with it, and its two answers; the question takes focus when it appears. */
function Ask({ question, yes, no, onYes, onNo }: AskProps) {
  const text = admin.waitlist;
  const id = useId();
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const questionRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => questionRef.current?.focus(), []);

  async function answerYes() {
    if (reason.trim() === "") {
      setMissing(true);
      return;
    }
    setBusy(true);
    // Done: this cell is replaced (the list reloads); refused: ask again.
    if (!(await onYes(reason.trim()))) setBusy(false);
  }

  return (
    <div className="entry-ask">
      <p ref={questionRef} tabIndex={-1} className="entry-ask__question">
        {question}
      </p>
      <label htmlFor={`${id}-reason`}>{text.reason}</label>
      <input
        id={`${id}-reason`}
        className="input"
        type="text"
        maxLength={REASON_MAX_LENGTH}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        aria-invalid={missing || undefined}
        aria-describedby={missing ? `${id}-missing` : undefined}
      />
      {missing && (
        <p id={`${id}-missing`} className="field-error">
          {text.reasonMissing}
        </p>
      )}
      <BusyButton className="button button--small button--danger" busy={busy} busyLabel={text.saving} onClick={answerYes}>
        {yes}
      </BusyButton>
      <button type="button" className="button button--small button--quiet" onClick={onNo}>
        {no}
      </button>
    </div>
  );
}

/** A button that opens its question in place, and takes focus back when the question is dismissed. */
function useAsking() {
  const [asking, setAsking] = useState(false);
  const [returnFocus, setReturnFocus] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!asking && returnFocus) {
      buttonRef.current?.focus();
      setReturnFocus(false);
    }
  }, [asking, returnFocus]);
  return {
    asking,
    buttonRef,
    open: () => setAsking(true),
    dismiss: () => {
      setAsking(false);
      setReturnFocus(true);
    },
    done: () => setAsking(false),
  };
}

/** "Invite waves": held since when, with the way back in, or the way out. */
export function Waves({ entry }: { entry: AdminListedEntry }) {
  const text = admin.waitlist;
  const { hold } = useHandlers();
  const ask = useAsking();
  const held = entry.held_at !== null;
  const answer = async (reason: string) => {
    const ok = await hold(entry, !held, reason);
    if (ok) ask.done();
    return ok;
  };
  return (
    <>
      {held && <span className="badge badge--held">{text.held}</span>}
      {entry.held_at && <span className="cell-note">{text.heldSince(formatTime(entry.held_at))}</span>}
      {ask.asking ? (
        <Ask
          question={held ? text.releaseConfirm(entry.email) : text.holdConfirm(entry.email)}
          yes={held ? text.releaseYes : text.holdYes}
          no={text.cancel}
          onYes={answer}
          onNo={ask.dismiss}
        />
      ) : (
        <button
          ref={ask.buttonRef}
          type="button"
          className="button button--small"
          aria-label={held ? text.releaseLabel(entry.email) : text.holdLabel(entry.email)}
          onClick={ask.open}
        >
          {held ? text.release : text.hold}
        </button>
      )}
    </>
  );
}

/** "Referred by": the referrer's code, and whether the credit this entry gave it counts (with the way to void it). */
export function ReferredBy({ entry }: { entry: AdminListedEntry }) {
  const text = admin.waitlist.credit;
  const { voidCredit } = useHandlers();
  const ask = useAsking();
  if (!entry.referred_by) return <Value>{null}</Value>;
  const code = entry.referred_by;
  const answer = async (reason: string) => {
    const ok = await voidCredit(entry, reason);
    if (ok) ask.done();
    return ok;
  };
  return (
    <>
      <code>{code}</code>
      {entry.referral_credit === "voided" && <span className="cell-note">{text.voided}</span>}
      {entry.referral_credit === "counted" && (
        <>
          <span className="cell-note">{text.counted}</span>
          {ask.asking ? (
            <Ask question={text.confirm(code)} yes={text.yes} no={text.keep} onYes={answer} onNo={ask.dismiss} />
          ) : (
            <button
              ref={ask.buttonRef}
              type="button"
              className="button button--small"
              aria-label={text.voidLabel(entry.email)}
              onClick={ask.open}
            >
              {text.void}
            </button>
          )}
        </>
      )}
    </>
  );
}

/** "Referrals": the confirmed referrals that count, and how many an operator voided. */
export function Referrals({ entry }: { entry: AdminListedEntry }) {
  return (
    <>
      {formatCount(entry.referrals_confirmed)}
      {entry.referrals_voided > 0 && <span className="cell-note">{admin.waitlist.referralsVoided(entry.referrals_voided)}</span>}
    </>
  );
}

import type { ErasureCounts, PersonRecord } from "@shared/admin";
import { useId, useState, type FormEvent } from "react";
import { admin } from "../content";
import { useConsole } from "../context";
import { ErasureRecord } from "./ErasureRecord";
import { BusyButton, Section } from "./Section";
import { useFocusRequest } from "./use-focus-request";

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
  // The lookup's result, or what was erased, takes focus once shown (whichever element says it).
  const result = useFocusRequest<HTMLElement>();
  const setResult = (element: HTMLElement | null) => {
    result.ref.current = element;
  };
  const addressId = useId();
  const confirmId = useId();
  const hintId = useId();

  const record = outcome.kind === "found" ? outcome.record : null;
  const matches = record !== null && typed.trim().toLowerCase() === record.email.toLowerCase();
  const nothingStored = record !== null && isEmpty(record);

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
      result.request();
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
      result.request();
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
          <ErasureRecord record={record} />
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
  return (
    record.waitlist === null &&
    record.submissions.length === 0 &&
    record.user === null &&
    record.sign_in_code === null &&
    // A parent's address may be stored only in children's requests waiting for an answer (issue 23).
    record.parental_requests.length === 0
  );
}

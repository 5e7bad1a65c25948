import { useId } from "react";
import { HONEYPOT_FIELD } from "@shared/public-forms";
import { honeypot } from "../form-content";

/**
 * The honeypot of a public form (worker/shared/public-forms.ts): a field named like one a
 * form-filling bot fills in, which people neither see nor hear. It is moved off-screen by its
 * class rather than hidden with display:none, which bots look for; aria-hidden keeps it from
 * screen readers and tabIndex -1 out of the keyboard's way. autoComplete="off", with the opt-outs
 * of the common password managers, asks browsers not to fill it for a person, whose submission
 * would otherwise be dropped without a word. It is an ordinary field of its form: the browser
 * posts it before the app runs, and the app reads it with the other fields when the form is
 * submitted, so even a value a bot sets without any input event is sent.
 */
export function Honeypot() {
  const id = useId();
  return (
    <div className="honeypot" aria-hidden="true">
      {/* Only shown without styles (a text browser), where a person must know to leave it empty. */}
      <label htmlFor={id}>{honeypot.label}</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" data-1p-ignore="" data-lpignore="true" />
    </div>
  );
}

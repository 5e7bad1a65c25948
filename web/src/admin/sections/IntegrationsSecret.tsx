import { useId, useRef, useState } from "react";
import { integrations } from "../integrations-content";
import { Messages } from "./Section";

const text = integrations.secret;

/**
 * A secret just made (at creation or rotation), shown this once: a read-only field with a copy
 * button, the words that say it will not be shown again, and how a receiver verifies with it. It
 * lives only in this screen's state: leaving the screen forgets it. A Slack endpoint has none.
 */
export function IntegrationsSecret({ secret }: { secret: string | null }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (secret === null) return <p className="notice">{text.slack}</p>;

  async function copy() {
    setStatus(null);
    setError(null);
    try {
      await navigator.clipboard.writeText(secret ?? "");
      setStatus(text.copied);
    } catch {
      field.current?.select();
      setError(text.copyFailed);
    }
  }

  return (
    <section className="campaign__part integration-secret" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>{text.title}</h4>
      <p id={`${id}-once`} className="integration-secret__once">
        {text.once}
      </p>
      <label htmlFor={`${id}-secret`}>{text.label}</label>
      <div className="search__row">
        <input
          ref={field}
          id={`${id}-secret`}
          className="input integration-secret__value"
          type="text"
          readOnly
          value={secret}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={`${id}-once`}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="button" onClick={() => void copy()}>
          {text.copy}
        </button>
      </div>
      <Messages status={status} error={error} />
      <p className="hint">{text.hint}</p>
    </section>
  );
}

import type { WebhookEndpointJson, WebhookTestResult } from "@shared/webhooks";
import { type Ref, useState } from "react";
import { useConsole } from "../context";
import { integrations } from "../integrations-content";
import { useIntegrationsReport } from "./IntegrationsShared";
import { BusyButton, Messages } from "./Section";
import { useFocusRequest } from "./use-focus-request";

type Action = "test" | "rotate" | "toggle" | "delete";
const text = integrations.actions;

/**
 * An endpoint's actions: "Send a test event" (the receiver's status or the error, and the first
 * bytes of its answer), Rotate (asks first; the new secret goes to the screen, shown once), Disable
 * or Enable, Edit, and Delete (asks first). Each question takes focus; "Keep it" gives it back.
 */
export function IntegrationsActions({
  endpoint,
  editing,
  editRef,
  onEdit,
  onChanged,
  onDeleted,
}: {
  endpoint: WebhookEndpointJson;
  editing: boolean;
  editRef: Ref<HTMLButtonElement>;
  onEdit: () => void;
  /** After a change: what to say, and a new secret (rotation) to show once. */
  onChanged: (message: string, secret?: string | null) => void;
  onDeleted: () => void;
}) {
  const { api } = useConsole();
  const report = useIntegrationsReport();
  const [busy, setBusy] = useState<Action | null>(null);
  const [asking, setAsking] = useState<"rotate" | "delete" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tested, setTested] = useState<WebhookTestResult | null>(null);
  const question = useFocusRequest<HTMLParagraphElement>();
  const rotateButton = useFocusRequest<HTMLButtonElement>();
  const deleteButton = useFocusRequest<HTMLButtonElement>();

  async function run(action: Action) {
    if (busy) return;
    setBusy(action);
    setError(null);
    if (action === "test") setTested(null);
    try {
      if (action === "test") setTested(await api.testWebhook(endpoint.id));
      if (action === "rotate") {
        const rotated = await api.rotateWebhook(endpoint.id);
        setAsking(null);
        onChanged(text.rotated, rotated.secret);
      }
      if (action === "toggle") {
        await (endpoint.enabled ? api.disableWebhook(endpoint.id) : api.enableWebhook(endpoint.id));
        onChanged(endpoint.enabled ? text.disabled : text.enabled);
      }
      if (action === "delete") {
        await api.deleteWebhook(endpoint.id);
        onDeleted();
      }
    } catch (failure) {
      setError(report(failure));
    } finally {
      setBusy(null);
    }
  }

  const ask = (which: "rotate" | "delete") => {
    setAsking(which);
    question.request();
  };
  const keep = () => {
    const was = asking;
    setAsking(null);
    (was === "rotate" ? rotateButton : deleteButton).request();
  };

  return (
    <div className="campaign__part integration__actions">
      <div className="button-row">
        <BusyButton className="button button--primary" busy={busy === "test"} busyLabel={text.testing} onClick={() => run("test")}>
          {text.test}
        </BusyButton>
        {endpoint.kind === "standard" && asking !== "rotate" && (
          <button ref={rotateButton.ref} type="button" className="button" onClick={() => ask("rotate")}>
            {text.rotate}
          </button>
        )}
        <BusyButton
          className="button"
          busy={busy === "toggle"}
          busyLabel={endpoint.enabled ? text.disabling : text.enabling}
          onClick={() => run("toggle")}
        >
          {endpoint.enabled ? text.disable : text.enable}
        </BusyButton>
        {!editing && (
          <button ref={editRef} type="button" className="button" onClick={onEdit}>
            {text.edit}
          </button>
        )}
        {asking !== "delete" && (
          <button ref={deleteButton.ref} type="button" className="button button--danger" onClick={() => ask("delete")}>
            {text.delete}
          </button>
        )}
      </div>
      {asking && (
        <div className={`confirm-step${asking === "delete" ? " confirm-step--danger" : ""}`}>
          <p ref={question.ref} tabIndex={-1} className="confirm-step__question">
            {asking === "rotate" ? text.confirmRotate : text.confirmDelete(endpoint.name)}
          </p>
          <div className="button-row">
            <BusyButton
              className={asking === "delete" ? "button button--danger" : "button button--primary"}
              busy={busy === asking}
              busyLabel={asking === "rotate" ? text.rotating : text.deleting}
              onClick={() => run(asking)}
            >
              {asking === "rotate" ? text.yesRotate : text.yesDelete}
            </BusyButton>
            <button type="button" className="button button--quiet" onClick={keep}>
              {text.keep}
            </button>
          </div>
        </div>
      )}
      {/* A test the receiver refused is said as a failure (an alert); one it took as a status. */}
      <Messages status={tested?.ok ? testedLine(tested) : null} error={error ?? (tested && !tested.ok ? testedLine(tested) : null)} />
      {tested && (
        <div className="integration__answer">
          <p className="hint">{text.answer}</p>
          {tested.answer ? <pre>{tested.answer}</pre> : <p className="hint">{text.noAnswer}</p>}
        </div>
      )}
    </div>
  );
}

function testedLine(result: WebhookTestResult | null): string | null {
  if (!result) return null;
  return result.ok ? text.testOk(result.status, result.took_ms) : text.testFailed(result.status, result.error, result.took_ms);
}

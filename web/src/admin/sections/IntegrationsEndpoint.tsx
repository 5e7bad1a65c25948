import type { WebhookEndpointDetail, WebhookEndpointJson } from "@shared/webhooks";
import { useCallback, useEffect, useState } from "react";
import { useConsole } from "../context";
import { integrations as text } from "../integrations-content";
import { ScreenHeading } from "./CampaignsShared";
import { IntegrationsActions } from "./IntegrationsActions";
import { IntegrationsDeliveries } from "./IntegrationsDeliveries";
import { IntegrationsForm } from "./IntegrationsForm";
import { IntegrationsSecret } from "./IntegrationsSecret";
import { EndpointState, EventNames, useIntegrationsReport } from "./IntegrationsShared";
import { BusyButton, Messages, TryAgain } from "./Section";
import { useFocusRequest } from "./use-focus-request";

/**
 * One endpoint's screen (GET /api/admin/webhooks/:id): what it is and its state, the secret just
 * made for it (creation, rotation: this once), its actions, the edit form, its recent deliveries
 * and dead letters. Every action reads the endpoint again, so what is shown is what is stored.
 */
export function IntegrationsEndpoint({
  id,
  initial,
  createdSecret,
  focus,
  onDeleted,
}: {
  id: number;
  initial: WebhookEndpointJson | null;
  /** Just added: its secret (null for Slack), shown once. */
  createdSecret: { secret: string | null } | null;
  focus: number;
  onDeleted: (name: string) => void;
}) {
  const { api } = useConsole();
  const report = useIntegrationsReport();
  const [detail, setDetail] = useState<WebhookEndpointDetail | null>(null);
  const [secret, setSecret] = useState(createdSecret);
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const editButton = useFocusRequest<HTMLButtonElement>();

  const load = useCallback(async () => {
    try {
      setDetail(await api.webhook(id));
      return true;
    } catch (failure) {
      setError(report(failure));
      return false;
    }
  }, [api, report, id]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads only asks again.
  useEffect(() => {
    void load();
  }, [load, reloads]);

  const endpoint = detail?.endpoint ?? initial;
  if (!endpoint) {
    return (
      <div className="campaign">
        <Messages status={error ? null : text.loading} error={error} />
        {error && <TryAgain onClick={() => setReloads((n) => n + 1)} />}
      </div>
    );
  }

  const says = (message: string | null, failure: string | null = null) => {
    setStatus(message);
    setError(failure);
  };

  return (
    <div className="campaign integration" data-endpoint-id={endpoint.id}>
      <div className="campaign__head">
        <ScreenHeading focus={focus}>{endpoint.name}</ScreenHeading>
        <BusyButton
          className="button button--small"
          busy={refreshing}
          busyLabel={text.refreshing}
          onClick={async () => {
            setRefreshing(true);
            if (await load()) says(text.refreshed);
            setRefreshing(false);
          }}
        >
          {text.refresh}
        </BusyButton>
      </div>
      {secret && <IntegrationsSecret secret={secret.secret} />}
      <dl className="fields integration__fields">
        <div className="field">
          <dt>{text.list.columns.kind}</dt>
          <dd>{text.kinds[endpoint.kind] ?? endpoint.kind}</dd>
        </div>
        <div className="field">
          <dt>{text.list.columns.url}</dt>
          <dd className="cell-url">{endpoint.url}</dd>
        </div>
        <div className="field">
          <dt>{text.list.columns.state}</dt>
          <dd className="cell-status">
            <EndpointState endpoint={endpoint} />
          </dd>
        </div>
        <div className="field">
          <dt>{text.list.columns.queue}</dt>
          <dd>{text.list.queue(endpoint.pending, endpoint.dead)}</dd>
        </div>
        <div className="field">
          <dt>{text.list.columns.events}</dt>
          <dd>
            <EventNames events={endpoint.events} />
          </dd>
        </div>
      </dl>
      {endpoint.previous_secret_until && <p className="notice">{text.state.rotation(endpoint.previous_secret_until)}</p>}
      <Messages status={status} error={error} />
      <IntegrationsActions
        endpoint={endpoint}
        editing={editing}
        editRef={editButton.ref}
        onEdit={() => setEditing(true)}
        onChanged={async (message, newSecret) => {
          if (newSecret !== undefined) setSecret({ secret: newSecret });
          if (await load()) says(message);
        }}
        onDeleted={() => onDeleted(endpoint.name)}
      />
      {editing && (
        <IntegrationsForm
          endpoint={endpoint}
          focus={0}
          onCancel={() => {
            setEditing(false);
            editButton.request();
          }}
          onSaved={async () => {
            setEditing(false);
            editButton.request();
            if (await load()) says(text.form.saved);
          }}
        />
      )}
      {detail && (
        <IntegrationsDeliveries
          endpointId={endpoint.id}
          deliveries={detail.deliveries}
          dead={detail.dead}
          onRetried={async (message) => {
            if (await load()) says(message);
          }}
        />
      )}
      <p className="hint">{text.state.created(endpoint.created_at)}</p>
    </div>
  );
}

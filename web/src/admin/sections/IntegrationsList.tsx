import type { WebhookEndpointJson } from "@shared/webhooks";
import { useEffect, useState } from "react";
import { admin } from "../content";
import { useConsole } from "../context";
import { integrations as text } from "../integrations-content";
import { ScreenHeading } from "./CampaignsShared";
import { EndpointState, EventNames, useIntegrationsReport } from "./IntegrationsShared";
import { Messages, TryAgain } from "./Section";

/**
 * Every endpoint (GET /api/admin/webhooks): its name (which opens it), kind, address (a Slack one
 * masked by the API), events, state (enabled; disabled, why and when; failing since when) and its
 * deliveries waiting and dead.
 */
export function IntegrationsList({ focus, onOpen }: { focus: number; onOpen: (endpoint: WebhookEndpointJson) => void }) {
  const { api } = useConsole();
  const report = useIntegrationsReport();
  const [endpoints, setEndpoints] = useState<WebhookEndpointJson[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads only asks for the list again.
  useEffect(() => {
    let current = true;
    setError(null);
    api.webhooks().then(
      (list) => current && setEndpoints(list),
      (failure: unknown) => current && setError(report(failure)),
    );
    return () => {
      current = false;
    };
  }, [api, report, reloads]);

  const columns = text.list.columns;
  return (
    <div className="campaign integrations-list">
      <ScreenHeading focus={focus}>{text.list.caption}</ScreenHeading>
      <p>{text.intro}</p>
      <Messages status={endpoints ? text.list.loaded(endpoints.length) : error ? null : admin.loading} error={error} />
      {error && <TryAgain onClick={() => setReloads((n) => n + 1)} />}
      {endpoints && endpoints.length === 0 && <p className="empty">{text.list.empty}</p>}
      {endpoints && endpoints.length > 0 && (
        // biome-ignore lint/a11y/useSemanticElements: a scrolling box inside a section, named by its table's caption.
        <div
          className="table-scroll"
          role="region"
          aria-labelledby="integrations-caption"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard (axe: scrollable-region-focusable).
          tabIndex={0}
        >
          <table className="data-table integrations-table">
            <caption id="integrations-caption">{text.list.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{columns.name}</th>
                <th scope="col">{columns.kind}</th>
                <th scope="col">{columns.url}</th>
                <th scope="col">{columns.events}</th>
                <th scope="col">{columns.state}</th>
                <th scope="col" className="numeric">
                  {columns.queue}
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((endpoint) => (
                <tr key={endpoint.id}>
                  <th scope="row" className="cell-subject">
                    <button type="button" className="link-button" onClick={() => onOpen(endpoint)}>
                      <span className="visually-hidden">{text.list.open(endpoint.name)}</span>
                      <span aria-hidden="true">{endpoint.name}</span>
                    </button>
                  </th>
                  <td data-label={columns.kind}>{text.kinds[endpoint.kind] ?? endpoint.kind}</td>
                  <td className="cell-url" data-label={columns.url}>
                    {endpoint.url}
                  </td>
                  <td data-label={columns.events}>
                    <EventNames events={endpoint.events} />
                  </td>
                  <td className="cell-status" data-label={columns.state}>
                    <EndpointState endpoint={endpoint} />
                  </td>
                  <td className="numeric" data-label={columns.queue}>
                    {text.list.queue(endpoint.pending, endpoint.dead)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

import type { WebhookEndpointJson } from "@shared/webhooks";
import { useState } from "react";
import { integrations as text } from "../integrations-content";
import { IntegrationsEndpoint } from "./IntegrationsEndpoint";
import { IntegrationsForm } from "./IntegrationsForm";
import { IntegrationsList } from "./IntegrationsList";
import { Messages, Section } from "./Section";

/**
 * Which screen the section shows: the endpoints, the form that adds one, or one endpoint (with the
 * secret just made for it, shown once: leaving the screen forgets it).
 */
type Screen =
  | { name: "list" }
  | { name: "add" }
  | { name: "endpoint"; id: number; endpoint: WebhookEndpointJson | null; secret: string | null; created: boolean };

/**
 * The console's Integrations section (issue 25 §1): the endpoints that get signed webhooks or
 * Slack messages, adding one, and one endpoint at a time (its test, secret, state, deliveries and
 * dead letters). Moving between the screens moves focus to the new screen's heading; what a screen
 * did that ends it (a deletion) is said in the section's live region.
 */
export function Integrations({ id }: { id: string }) {
  const [screen, setScreen] = useState<Screen>({ name: "list" });
  const [focus, setFocus] = useState(0);
  const [said, setSaid] = useState<string | null>(null);
  const go = (next: Screen, message: string | null = null) => {
    setScreen(next);
    setSaid(message);
    setFocus((n) => n + 1);
  };
  const toList = (message: string | null = null) => go({ name: "list" }, message);

  return (
    <Section
      id={id}
      title={text.title}
      actions={
        screen.name === "list" ? (
          <button type="button" className="button button--primary button--small" onClick={() => go({ name: "add" })}>
            {text.add}
          </button>
        ) : (
          <button type="button" className="button button--small" onClick={() => toList()}>
            {text.back}
          </button>
        )
      }
    >
      <Messages status={said} error={null} />
      {screen.name === "list" && (
        <IntegrationsList
          focus={focus}
          onOpen={(endpoint) => go({ name: "endpoint", id: endpoint.id, endpoint, secret: null, created: false })}
        />
      )}
      {screen.name === "add" && (
        <IntegrationsForm
          endpoint={null}
          focus={focus}
          onCancel={() => toList()}
          onCreated={(created) =>
            go({ name: "endpoint", id: created.endpoint.id, endpoint: created.endpoint, secret: created.secret, created: true })
          }
        />
      )}
      {screen.name === "endpoint" && (
        <IntegrationsEndpoint
          key={screen.id}
          id={screen.id}
          initial={screen.endpoint}
          createdSecret={screen.created ? { secret: screen.secret } : null}
          focus={focus}
          onDeleted={(name) => toList(text.actions.deleted(name))}
        />
      )}
    </Section>
  );
}

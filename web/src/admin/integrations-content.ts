/**
 * The console's words for the integrations (issue 25 §1): the endpoints that get signed webhooks
 * or Slack messages, adding one, its secret (shown once), its actions, deliveries and dead letters.
 * The numbers and times in them are written by ./format.ts.
 */
import { ROTATION_OVERLAP_HOURS, type WebhookDeliveryJson, type WebhookEventType, type WebhookKind } from "@shared/webhooks";
import { formatCount, formatTime, plural } from "./format";

export const integrations = {
  title: "Integrations",
  intro:
    "Endpoints get the events you choose as they happen: signed Standard Webhooks JSON for a CRM or your own code, or a short Slack message. Only adults' own entries are ever sent: nothing about a child or a teenager, an entry made on behalf of a child, or a pending parental request.",
  add: "Add an endpoint",
  back: "Back to the endpoints",
  notConfigured:
    "Integrations are not set up on the server: the WEBHOOK_SECRETS_KEY setting is missing (it encrypts the endpoints' secrets). Set it as a secret of the worker, then reload this page.",

  list: {
    caption: "Endpoints",
    loaded: (count: number) => `${plural(count, "endpoint")}.`,
    empty: "No endpoint yet. Add one to send the team's other tools what happens here.",
    columns: { name: "Name", kind: "Kind", url: "Address", events: "Events", state: "State", queue: "Waiting / dead" },
    open: (name: string) => `Open ${name}`,
    queue: (pending: number, dead: number) => `${formatCount(pending)} waiting, ${formatCount(dead)} dead`,
  },

  kinds: {
    standard: "Standard Webhooks JSON",
    slack: "Slack",
  } satisfies Record<WebhookKind, string>,

  events: {
    "waitlist.joined": "Someone joined the waitlist (not yet confirmed).",
    "waitlist.confirmed": "Someone confirmed their place.",
    "referral.confirmed": "A friend confirmed with someone's link: the referrer and their new place.",
    "contact.received": "A message came through a contact form.",
    "campaign.finished": "A campaign finished sending: its counts.",
    "person.erased": "Someone was erased: sent to every endpoint that ever got their data, so it can delete them too.",
  } satisfies Record<WebhookEventType, string>,

  state: {
    enabled: "Enabled",
    disabled: "Disabled",
    failing: "Failing",
    disabledWhy: (reason: string | null, at: string | null) => `${reason ?? "Disabled"}${at ? ` (${formatTime(at)})` : ""}`,
    failingSince: (since: string, run: number) => `Failing since ${formatTime(since)} (${plural(run, "attempt")} in a row)`,
    lastSuccess: (at: string) => `Last delivered ${formatTime(at)}`,
    created: (at: string) => `Added ${formatTime(at)}.`,
    rotation: (until: string) => `The previous secret keeps signing until ${formatTime(until)}.`,
  },

  form: {
    addTitle: "Add an endpoint",
    editTitle: (name: string) => `Edit ${name}`,
    name: "Name",
    nameHint: "For you and the audit trail, e.g. “CRM” or “Launch channel”.",
    nameRequired: "Give the endpoint a name.",
    url: "Address (URL)",
    urlHint: "An https address. While you develop, http://127.0.0.1 or http://localhost works too.",
    urlRequired: "Enter the address the events go to.",
    urlInvalid: "Enter a full address starting with https://.",
    kind: "Kind",
    kindHint: {
      standard: "Signed JSON (standardwebhooks.com) with the fields a CRM needs. You get a secret to verify the signatures.",
      slack: "A Slack incoming webhook address (https://hooks.slack.com/…): a short line per event.",
    } satisfies Record<WebhookKind, string>,
    slackNote: "Slack messages carry no personal data: no address, no name, no message text.",
    events: "Events",
    eventsRequired: "Choose at least one event.",
    fixFirst: "Correct the marked fields first.",
    create: "Add the endpoint",
    creating: "Adding…",
    save: "Save changes",
    saving: "Saving…",
    cancel: "Cancel",
    saved: "Changes saved.",
  },

  secret: {
    title: "The endpoint's signing secret",
    label: "Signing secret",
    once: "Copy it now: it is shown this once and never again. Store it where your receiver reads its settings.",
    copy: "Copy the secret",
    copied: "The secret is copied.",
    copyFailed: "The browser did not let the console copy: select the field and copy it yourself.",
    hint: "Your receiver verifies every request with it, e.g. with the standardwebhooks library (new Webhook(secret).verify(body, headers)) on the raw body; the README's “Webhooks and Slack” has the snippet and the payloads.",
    slack: "Slack endpoints have no secret: the address itself is the secret, so it is stored encrypted and shown masked.",
  },

  actions: {
    test: "Send a test event",
    testing: "Sending…",
    testOk: (status: number | null, ms: number) => `The receiver answered ${status ?? "without a status"} in ${formatCount(ms)} ms.`,
    testFailed: (status: number | null, error: string | null, ms: number) =>
      `The test failed${status !== null ? `: the receiver answered ${status}` : ""}${error ? `: ${error}` : ""} (${formatCount(ms)} ms).`,
    answer: "The first bytes of its answer",
    noAnswer: "The answer was empty.",
    rotate: "Rotate the secret",
    rotating: "Rotating…",
    confirmRotate: `Rotate the secret? A new one is made and shown once; the current one keeps signing beside it for ${ROTATION_OVERLAP_HOURS} hours, so you can update your receiver. A secret from an earlier rotation stops signing now.`,
    yesRotate: "Rotate it",
    rotated: "A new secret is made. Copy it now.",
    disable: "Disable",
    disabling: "Disabling…",
    disabled: "The endpoint is disabled: its deliveries wait until you enable it.",
    enable: "Enable",
    enabling: "Enabling…",
    enabled: "The endpoint is enabled: what waited is sent now.",
    edit: "Edit",
    delete: "Delete",
    deleting: "Deleting…",
    confirmDelete: (name: string) =>
      `Delete ${name}? Its deliveries still waiting are dropped and it gets nothing more, not even the erasures of people it was sent. A disabled endpoint keeps what waits for it and is told of erasures once you enable it again.`,
    yesDelete: "Delete it",
    keep: "Keep it",
    deleted: (name: string) => `${name} is deleted.`,
  },

  deliveries: {
    title: "Recent deliveries",
    caption: "Recent deliveries, newest first",
    none: "Nothing delivered yet.",
    columns: { event: "Event", id: "Webhook id", attempt: "Attempt", result: "Status or error", time: "Time" },
    status: {
      pending: "Waiting",
      delivered: "Delivered",
      dead: "Dead",
      cancelled: "Cancelled",
    } satisfies Record<WebhookDeliveryJson["status"], string>,
    next: (at: string) => `next try ${formatTime(at)}`,
  },

  dead: {
    title: "Dead letters",
    intro: "These deliveries failed every retry. Retry sends them again (in order, once each by webhook id).",
    caption: "Dead deliveries",
    none: "None.",
    columns: { event: "Event", id: "Webhook id", attempts: "Attempts", error: "Last status or error", time: "Last attempt" },
    retry: "Retry",
    retryOne: (event: string, id: string) => `Retry ${event} ${id}`,
    retryAll: "Retry all",
    retrying: "Retrying…",
    retried: (count: number) => `${plural(count, "delivery", "deliveries")} due again.`,
  },

  loading: "Loading the endpoint…",
  refresh: "Refresh",
  refreshing: "Refreshing…",
  refreshed: "The endpoint and its deliveries are up to date.",
  noStatus: "no answer",
} as const;

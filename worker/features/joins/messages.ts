import { AGE_BANDS, type AgeBand, type AgeBandStored } from "../../shared/age";
import { ATTRIBUTION_FIELDS, type Attribution } from "../../shared/waitlist";

/**
 * The joins queue's messages (issue 24 §3; wrangler.toml JOIN_QUEUE, README "When the database
 * cannot take a join"): a public join the database refused for load or unavailability, with what
 * its validation gave and nothing more, to be stored once the database takes it
 * (consumer.ts). Never a birth month or year (only the band the age question gave), never a
 * child's address (a child's join stores no address of the child: it never comes here).
 * - id: the message's own id (a random UUID), the backlog's and the dead-letter list's key;
 * - at: when the visitor was answered (ISO), the entry's created_at and the 201's joined_at;
 * - origin: the request's origin (the e-mail's links when SITE_URL is unset, locally);
 * - network: the keyed hash of the client's network (worker/features/waitlist/keys.ts networkKey), never the address.
 */
export type WaitingJoinMessage = {
  type: "join";
  id: string;
  at: string;
  origin: string;
  network: string | null;
  join: {
    email: string;
    source: string | null;
    ref: string | null;
    ageBand: AgeBandStored;
    country: string | null;
  } & Attribution;
};

/**
 * A child's join whose parental request the database refused for load (worker/features/parents
 * askParent): the parent's address only (never the child's), the band and the country, to be
 * asked once the database takes it. Same id, at and origin as a join's.
 */
export type WaitingParentMessage = {
  type: "parent";
  id: string;
  at: string;
  origin: string;
  parent: { parentEmail: string; band: AgeBand; country: string | null };
};

/** Anything the joins queue carries. */
export type WaitingMessage = WaitingJoinMessage | WaitingParentMessage;

/** The joins queue as the waitlist's join uses it (worker/features/waitlist/join.ts). */
export type JoinQueue = {
  /**
   * Puts one join on the queue, delivered after `delaySeconds` when given; throws when the queue
   * refuses it (then the visitor gets the spec's failure).
   */
  enqueue(message: WaitingMessage, delaySeconds?: number): Promise<void>;
  /** Puts joins back on the queue (the console's "retry" of dead joins), 100 per call; throws when the queue refuses. */
  enqueueAll(messages: readonly WaitingMessage[]): Promise<void>;
};

/** Messages per sendBatch call (Queues' limit per call). */
const SEND_BATCH = 100;

/** The producer binding as a JoinQueue. */
export function joinQueue(binding: Queue): JoinQueue {
  return {
    async enqueue(message, delaySeconds) {
      await binding.send(message, { contentType: "json", ...(delaySeconds ? { delaySeconds } : {}) });
    },
    async enqueueAll(messages) {
      for (let i = 0; i < messages.length; i += SEND_BATCH) {
        await binding.sendBatch(messages.slice(i, i + SEND_BATCH).map((body) => ({ body, contentType: "json" as const })));
      }
    },
  };
}

const text = (value: unknown): value is string => typeof value === "string";
const textOrNull = (value: unknown): value is string | null => value === null || typeof value === "string";

/**
 * A message's body as a WaitingMessage, or null when it is not one (a message of another shape
 * is never stored: the consumer logs and acknowledges it).
 */
export function waitingMessageOf(body: unknown): WaitingMessage | null {
  if (typeof body !== "object" || body === null) return null;
  const b = body as Record<string, unknown>;
  if (!text(b.id) || !text(b.at) || Number.isNaN(Date.parse(b.at)) || !text(b.origin)) return null;
  if (b.type === "parent") {
    const parent = b.parent as Record<string, unknown> | undefined;
    if (typeof parent !== "object" || parent === null || !text(parent.parentEmail) || !textOrNull(parent.country)) return null;
    return (AGE_BANDS as readonly unknown[]).includes(parent.band) ? (body as WaitingParentMessage) : null;
  }
  const join = b.join as Record<string, unknown> | undefined;
  if (b.type !== "join" || !textOrNull(b.network)) return null;
  if (typeof join !== "object" || join === null || !text(join.email) || !text(join.ageBand)) return null;
  if (![join.source, join.ref, join.country, ...ATTRIBUTION_FIELDS.map((field) => join[field])].every(textOrNull)) return null;
  return body as WaitingJoinMessage;
}

/**
 * The joins queue's tests (issue 24 §3; test/worker/joins-queue.test.ts): a D1 stand-in that
 * answers like an overloaded D1, a counting D1, queues that capture or refuse what is sent, and
 * the worker's own queue() run on a synthetic batch (the local queue would deliver on its own
 * time; the tests run the consumer at once instead).
 */
import { env } from "cloudflare:workers";
import worker from "../../worker/index";
import type { EnvOverrides } from "./worker";

/** D1's own words when its queue is full (developers.cloudflare.com/d1/observability/debug-d1). */
export const D1_OVERLOADED = "D1_ERROR: D1 DB is overloaded. Too many requests queued.";

/**
 * A D1 database whose every call (a batch, a statement) throws D1's overload error, or `message`.
 * `batchesOnly`: statements outside a batch still reach the test database.
 */
export function overloadedDatabase(options: { batchesOnly?: boolean; message?: string } = {}): D1Database {
  const message = options.message ?? D1_OVERLOADED;
  const fail = () => Promise.reject(new Error(message));
  return new Proxy(env.DB, {
    get(target, property) {
      if (property === "batch") return fail;
      if (!options.batchesOnly && property === "prepare") {
        const statement = { bind: () => statement, first: fail, all: fail, run: fail, raw: fail };
        return () => statement;
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The test D1 database, counting its calls: each batch is one, each statement run outside a batch is one. */
export function countingDatabase(): { db: D1Database; calls: () => number; batchSizes: number[] } {
  let calls = 0;
  const batchSizes: number[] = [];
  const countStatement = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        if (property === "bind") return (...args: unknown[]) => countStatement(value.apply(target, args));
        if (["first", "all", "run", "raw"].includes(String(property)))
          return (...args: unknown[]) => {
            calls += 1;
            return value.apply(target, args);
          };
        return value.bind(target);
      },
    });
  const unwrap = (statement: D1PreparedStatement) => (statement as unknown as { [RAW]?: D1PreparedStatement })[RAW] ?? statement;
  const db = new Proxy(env.DB, {
    get(target, property) {
      if (property === "prepare") return (query: string) => tagged(countStatement(target.prepare(query)), target.prepare(query));
      if (property === "batch")
        return (statements: D1PreparedStatement[]) => {
          calls += 1;
          batchSizes.push(statements.length);
          return target.batch(statements.map(unwrap));
        };
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, calls: () => calls, batchSizes };
}

const RAW = Symbol("raw statement");
/** A counting statement that remembers its real one (bound alike), so a batch gets real statements. */
function tagged(counting: D1PreparedStatement, raw: D1PreparedStatement): D1PreparedStatement {
  return new Proxy(counting, {
    get(target, property) {
      if (property === RAW) return raw;
      if (property === "bind")
        return (...args: unknown[]) =>
          tagged(
            (target.bind as (...a: unknown[]) => D1PreparedStatement)(...args),
            (raw.bind as (...a: unknown[]) => D1PreparedStatement)(...args),
          );
      return Reflect.get(target, property);
    },
  });
}

/** A queue binding that keeps what it is given (bodies, in order), and each single send's delay (undefined: none). */
export function capturingQueue(): { binding: Queue; sent: unknown[]; delays: (number | undefined)[] } {
  const sent: unknown[] = [];
  const delays: (number | undefined)[] = [];
  const binding = {
    send: async (body: unknown, options?: QueueSendOptions) => {
      sent.push(body);
      delays.push(options?.delaySeconds);
    },
    sendBatch: async (messages: Iterable<{ body: unknown }>) => {
      for (const message of messages) sent.push(message.body);
    },
  } as unknown as Queue;
  return { binding, sent, delays };
}

/** A queue binding that refuses everything, as a queue that cannot be reached does. */
export function refusingQueue(): Queue {
  const refuse = () => Promise.reject(new Error("Queue send failed: internal error (simulated)"));
  return { send: refuse, sendBatch: refuse } as unknown as Queue;
}

/** What the consumer did with each message of a synthetic batch. */
export type Outcome = { acked: boolean; retried: { delaySeconds?: number } | null };

/**
 * Runs the worker's queue() on a batch of `bodies` from `queue` (the joins queue by default),
 * each delivered for the `attempts`-th time, with the test env (optionally overridden); what it
 * did with each message, in order.
 */
export async function runQueue(
  bodies: readonly unknown[],
  overrides: EnvOverrides = {},
  options: { queue?: string; attempts?: number } = {},
): Promise<Outcome[]> {
  const outcomes: Outcome[] = bodies.map(() => ({ acked: false, retried: null }));
  const messages = bodies.map((body, i) => ({
    id: `message-${i}-${crypto.randomUUID()}`,
    timestamp: new Date(),
    body,
    attempts: options.attempts ?? 1,
    ack: () => {
      outcomes[i]!.acked = true;
    },
    retry: (retry: { delaySeconds?: number } = {}) => {
      outcomes[i]!.retried = retry;
    },
  }));
  const batch = {
    queue: options.queue ?? "homework-helper-joins",
    messages,
    ackAll: () => {
      for (const m of messages) m.ack();
    },
    retryAll: (retry?: { delaySeconds?: number }) => {
      for (const m of messages) m.retry(retry);
    },
  } as unknown as MessageBatch;
  await worker.queue(batch, { ...env, ...overrides } as Env);
  return outcomes;
}

import { DurableObject } from "cloudflare:workers";
import { describeError, log } from "../../platform/log";
import type { WaitingMessage } from "./messages";

/**
 * The joins waiting on the joins queue, and the dead ones (issue 24 §3): how many wait and since
 * when, for health and the console, and the dead letters' full messages for the operator. It
 * cannot live in the database: it is counted exactly while the database is down. One
 * SQLite-backed Durable Object (wrangler.toml JOIN_BACKLOG, the instance named "joins"):
 * - waiting: a join's message id and when it was answered, added when the join is queued,
 *   removed when the consumer stored it (or dropped it quietly: its address was listed);
 * - dead: the whole message of a join the queue gave up on (its dead-letter queue), kept until
 *   the operator puts it back on the queue ("retry"). A dead join no longer counts as waiting.
 * Nothing here is the source of truth for a join (the queue is): when a call to it fails, the
 * join still waits on the queue and the count is best effort (README says so).
 */
export class JoinBacklog extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      "create table if not exists waiting (id text primary key, at integer not null); " +
        "create index if not exists waiting_at on waiting (at); " +
        "create table if not exists dead (id text primary key, at integer not null, died_at integer not null, body text not null); " +
        "create table if not exists asked (id text primary key, at integer not null)",
    );
  }

  /** A join put on the queue (its message id, when it was answered: epoch ms); again is nothing new. */
  add(id: string, at: number): void {
    this.ctx.storage.sql.exec("insert into waiting (id, at) values (?, ?) on conflict (id) do nothing", id, at);
  }

  /** Joins stored (or dropped quietly): they wait no more. */
  remove(ids: readonly string[]): void {
    for (const id of ids) this.ctx.storage.sql.exec("delete from waiting where id = ?", id);
  }

  /**
   * Whether the parental request of this message was stored already (an earlier delivery), and
   * marking that it was: a parent's request has no address of its own to be deduplicated by in
   * the database. Marks older than the queue's longest retention (14 days) are dropped.
   */
  wasAsked(id: string): boolean {
    return this.ctx.storage.sql.exec("select 1 from asked where id = ?", id).toArray().length > 0;
  }

  markAsked(id: string, now: number): void {
    this.ctx.storage.sql.exec("insert into asked (id, at) values (?, ?) on conflict (id) do nothing", id, now);
    this.ctx.storage.sql.exec("delete from asked where at < ?", now - 14 * 86_400_000);
  }

  /** How many joins wait and when the oldest was answered (epoch ms, null: none); how many are dead. */
  stats(): BacklogStats {
    const waiting = this.ctx.storage.sql
      .exec<{ n: number; oldest: number | null }>("select count(*) as n, min(at) as oldest from waiting")
      .one();
    const dead = this.ctx.storage.sql.exec<{ n: number }>("select count(*) as n from dead").one();
    return { waiting: waiting.n, oldestAt: waiting.oldest, dead: dead.n };
  }

  /** Joins the queue gave up on: kept whole (a second delivery of one changes nothing), and no longer waiting. */
  keepDead(messages: readonly WaitingMessage[], diedAt: number): void {
    for (const message of messages) {
      this.ctx.storage.sql.exec(
        "insert into dead (id, at, died_at, body) values (?, ?, ?, ?) on conflict (id) do nothing",
        message.id,
        Date.parse(message.at),
        diedAt,
        JSON.stringify(message),
      );
      this.ctx.storage.sql.exec("delete from waiting where id = ?", message.id);
    }
  }

  /** The dead joins, oldest first (at most `limit`); `ids`: only those. */
  dead(limit: number, ids?: readonly string[]): DeadJoin[] {
    type Row = { body: string; died_at: number };
    const rows = ids
      ? ids.slice(0, limit).flatMap((id) => this.ctx.storage.sql.exec<Row>("select body, died_at from dead where id = ?", id).toArray())
      : this.ctx.storage.sql.exec<Row>("select body, died_at from dead order by at, id limit ?", limit).toArray();
    return rows.map((row) => ({ message: JSON.parse(row.body) as WaitingMessage, diedAt: row.died_at }));
  }

  /** Dead joins put back on the queue: waiting again (with when they were answered), no longer dead. */
  revive(ids: readonly string[]): void {
    for (const id of ids) {
      this.ctx.storage.sql.exec("insert into waiting (id, at) select id, at from dead where id = ? on conflict (id) do nothing", id);
      this.ctx.storage.sql.exec("delete from dead where id = ?", id);
    }
  }
}

export type BacklogStats = { waiting: number; oldestAt: number | null; dead: number };
export type DeadJoin = { message: WaitingMessage; diedAt: number };

/** The most dead joins the console lists (and "retry all" takes) at once. */
export const DEAD_LIST_LIMIT = 1000;

/** The backlog as the features use it: every call best effort except where the caller must know (stats, the dead list). */
export type Backlog = {
  /** Counts a queued join; a failure is logged, never thrown (the join waits on the queue anyway). */
  add(message: WaitingMessage): Promise<void>;
  /** Uncounts stored joins; a failure is logged, never thrown. */
  remove(ids: readonly string[]): Promise<void>;
  stats(): Promise<BacklogStats>;
  keepDead(messages: readonly WaitingMessage[], diedAt: Date): Promise<void>;
  /** Whether a waiting parental request was stored by an earlier delivery (throws when it cannot be told: then it is retried). */
  wasAsked(id: string): Promise<boolean>;
  markAsked(id: string, now: Date): Promise<void>;
  dead(limit: number, ids?: readonly string[]): Promise<DeadJoin[]>;
  revive(ids: readonly string[]): Promise<void>;
};

/** The one backlog instance behind the binding. */
export function backlog(binding: DurableObjectNamespace<JoinBacklog>): Backlog {
  const stub = () => binding.get(binding.idFromName("joins"));
  const bestEffort = async (event: string, count: number, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      log("error", event, { count, error: describeError(error) });
    }
  };
  return {
    add: (message) => bestEffort("joins.backlog_add_failed", 1, () => stub().add(message.id, Date.parse(message.at))),
    remove: (ids) =>
      ids.length === 0 ? Promise.resolve() : bestEffort("joins.backlog_remove_failed", ids.length, () => stub().remove(ids)),
    stats: () => stub().stats(),
    keepDead: async (messages, diedAt) => void (await stub().keepDead(messages, diedAt.getTime())),
    wasAsked: async (id) => await stub().wasAsked(id),
    markAsked: async (id, now) => void (await stub().markAsked(id, now.getTime())),
    dead: async (limit, ids) => (await stub().dead(limit, ids)) as DeadJoin[],
    revive: async (ids) => void (await stub().revive(ids)),
  };
}

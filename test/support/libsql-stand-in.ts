/**
 * A libSQL server the benchmarks control: the remote protocol the worker's client speaks
 * (@libsql/client/web → Hrana 2 over HTTP with JSON: POST /v2/pipeline carrying execute, batch,
 * store_sql, close_sql, sequence, get_autocommit and close requests, typed values, a baton per
 * stream), backed by node:sqlite on one file with the project's migrations applied at start.
 *
 * What sqld does not do, and this does, for the benchmarks:
 * - it counts every database call (a pipeline request that runs SQL), by kind: `write` when one of
 *   its statements may change the database (anything but SELECT/EXPLAIN and the transaction
 *   keywords), `read` otherwise; pipelines that only close a stream are counted apart;
 * - it can be made unavailable for a while (`503`: every pipeline answers HTTP 503, as a server
 *   that is down behind a proxy; `drop`: the connection is closed without an answer), and it
 *   counts what it refused;
 * - it answers the bench's own queries (not counted) so a bench can read the list at the end.
 *
 * Control routes (never called by the worker): GET /__stand-in/counts, POST /__stand-in/reset,
 * POST /__stand-in/outage {"seconds": 20, "mode": "503" | "drop"}, POST /__stand-in/query
 * {"sql": "...", "args": [...]} → {"rows": [...]}.
 *
 * Run it on its own (`node test/support/libsql-stand-in.ts [--port N] [--db FILE]`: it prints
 * one JSON line {"port": N} when it listens) or through startLibsqlStandIn() below, which runs
 * it in a child process so its event loop is not the load generator's. It speaks JSON only:
 * the web client never asks for protobuf (it uses protocol version 2 unless told otherwise),
 * and GET /v3-protobuf answers 404 so a client that probes falls back to /v2.
 *
 * Node 22 (node:sqlite, type stripping): the project's node in node_modules/.bin.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Socket } from "node:net";
import { fileURLToPath } from "node:url";

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../migrations");
/** A stream left inside an explicit transaction may hold the database this long (ms) before it is rolled back. */
const TRANSACTION_HOLD_MS = 10_000;
/** A stream nobody used for this long (ms) is forgotten. */
const STREAM_IDLE_MS = 30_000;

export type StandInCounts = {
  /** Pipeline requests that ran SQL: the database calls. */
  calls: number;
  read: number;
  write: number;
  /** SQL statements run (a batch's BEGIN/COMMIT included). */
  statements: number;
  /** Pipeline requests that only closed a stream (no SQL). */
  closeOnly: number;
  /** Requests answered 503 or dropped during an outage. */
  refused: number;
};

export type OutageMode = "503" | "drop";

// ---------------------------------------------------------------------------------------------
// The server (runs when this file is the entry point)

type HranaValue =
  | { type: "null" }
  | { type: "integer"; value: string }
  | { type: "float"; value: number }
  | { type: "text"; value: string }
  | { type: "blob"; base64: string };
type HranaStmt = {
  sql?: string;
  sql_id?: number;
  args?: HranaValue[];
  named_args?: { name: string; value: HranaValue }[];
  want_rows?: boolean;
};
type HranaCond =
  | { type: "ok" | "error"; step: number }
  | { type: "not"; cond: HranaCond }
  | { type: "and" | "or"; conds: HranaCond[] }
  | { type: "is_autocommit" };
type HranaRequest =
  | { type: "execute"; stmt: HranaStmt }
  | { type: "batch"; batch: { steps: { condition?: HranaCond | null; stmt: HranaStmt }[] } }
  | { type: "sequence"; sql?: string; sql_id?: number }
  | { type: "store_sql"; sql_id: number; sql: string }
  | { type: "close_sql"; sql_id: number }
  | { type: "get_autocommit" }
  | { type: "describe" }
  | { type: "close" };

type SqlValue = null | bigint | number | string | Uint8Array;
type StmtResult = {
  cols: { name: string; decltype: string | null }[];
  rows: HranaValue[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
  rows_read: number;
  rows_written: number;
  query_duration_ms: number;
};
type HranaError = { message: string; code: string };
type Stream = { sqls: Map<number, string>; lastUsed: number };

/** SQLite's primary result codes, as libSQL names them in its errors. */
const SQLITE_CODES: Record<number, string> = {
  1: "SQLITE_ERROR",
  5: "SQLITE_BUSY",
  6: "SQLITE_LOCKED",
  8: "SQLITE_READONLY",
  13: "SQLITE_FULL",
  19: "SQLITE_CONSTRAINT",
  20: "SQLITE_MISMATCH",
  25: "SQLITE_RANGE",
};

class StatementError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
}

async function serve(port: number, dbFile: string): Promise<void> {
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(dbFile);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;");
  applyMigrations(db);

  const counts: StandInCounts = { calls: 0, read: 0, write: 0, statements: 0, closeOnly: 0, refused: 0 };
  let outage: { until: number; mode: OutageMode } | null = null;
  const streams = new Map<string, Stream>();
  let batonCounter = 0;
  /** The baton of a stream inside an explicit transaction: others wait until it ends. */
  let holder: { baton: string; since: number } | null = null;
  const waiting: (() => void)[] = [];
  const sockets = new Set<Socket>();

  const prepared = new Map<string, ReturnType<typeof db.prepare>>();
  function prepare(sql: string) {
    let statement = prepared.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statement.setReadBigInts(true);
      statement.setReturnArrays(true);
      if (prepared.size > 500) prepared.clear();
      prepared.set(sql, statement);
    }
    return statement;
  }
  const totalChanges = db.prepare("SELECT total_changes(), changes(), last_insert_rowid()");
  totalChanges.setReadBigInts(true);
  totalChanges.setReturnArrays(true);
  function changeState(): [bigint, bigint, bigint] {
    return totalChanges.all()[0] as unknown as [bigint, bigint, bigint];
  }

  function toSql(value: HranaValue | undefined): SqlValue {
    if (!value || value.type === "null") return null;
    switch (value.type) {
      case "integer":
        return BigInt(value.value);
      case "float":
        return Number(value.value);
      case "text":
        return value.value;
      case "blob":
        return new Uint8Array(Buffer.from(value.base64, "base64"));
      default:
        throw new StatementError(`unknown value type ${JSON.stringify((value as { type: unknown }).type)}`, "HRANA_PROTO_ERROR");
    }
  }
  function fromSql(value: unknown): HranaValue {
    if (value === null || value === undefined) return { type: "null" };
    if (typeof value === "bigint") return { type: "integer", value: value.toString() };
    if (typeof value === "number") return Number.isInteger(value) ? { type: "integer", value: String(value) } : { type: "float", value };
    if (typeof value === "string") return { type: "text", value };
    if (value instanceof Uint8Array) return { type: "blob", base64: Buffer.from(value).toString("base64") };
    throw new StatementError(`cannot encode a ${typeof value}`, "HRANA_PROTO_ERROR");
  }

  function sqlOf(stmt: { sql?: string; sql_id?: number }, stream: Stream): string {
    if (typeof stmt.sql === "string") return stmt.sql;
    if (typeof stmt.sql_id === "number") {
      const sql = stream.sqls.get(stmt.sql_id);
      if (sql === undefined) throw new StatementError(`SQL text ${stmt.sql_id} was not stored`, "SQL_NOT_FOUND");
      return sql;
    }
    throw new StatementError("a statement needs sql or sql_id", "HRANA_PROTO_ERROR");
  }

  function runStatement(stmt: HranaStmt, stream: Stream): StmtResult {
    const sql = sqlOf(stmt, stream);
    const started = performance.now();
    counts.statements += 1;
    try {
      const statement = prepare(sql);
      const positional = (stmt.args ?? []).map(toSql);
      const params: unknown[] = [];
      if (stmt.named_args && stmt.named_args.length > 0) {
        params.push(Object.fromEntries(stmt.named_args.map(({ name, value }) => [name.replace(/^[:@$]/, ""), toSql(value)])));
      }
      params.push(...positional);
      const before = changeState()[0];
      const columns = statement.columns();
      const rows = columns.length > 0 ? (statement.all(...(params as never[])) as unknown as unknown[][]) : [];
      if (columns.length === 0) statement.run(...(params as never[]));
      const [after, changes, lastRowid] = changeState();
      const changed = after !== before;
      return {
        cols: columns.map((column) => ({ name: column.name, decltype: column.type ?? null })),
        rows: stmt.want_rows === false ? [] : rows.map((row) => row.map(fromSql)),
        affected_row_count: changed ? Number(changes) : 0,
        last_insert_rowid: changed ? lastRowid.toString() : null,
        rows_read: rows.length,
        rows_written: changed ? Number(changes) : 0,
        query_duration_ms: performance.now() - started,
      };
    } catch (error) {
      if (error instanceof StatementError) throw error;
      const e = error as { message?: string; errcode?: number };
      const code = typeof e.errcode === "number" ? (SQLITE_CODES[e.errcode & 0xff] ?? `SQLITE_${e.errcode & 0xff}`) : "SQLITE_ERROR";
      throw new StatementError(`SQLite error: ${e.message ?? String(error)}`, code);
    }
  }

  function condition(cond: HranaCond | null | undefined, results: (StmtResult | null)[], errors: (HranaError | null)[]): boolean {
    if (!cond) return true;
    switch (cond.type) {
      case "ok":
        return results[cond.step] !== null && results[cond.step] !== undefined;
      case "error":
        return errors[cond.step] !== null && errors[cond.step] !== undefined;
      case "not":
        return !condition(cond.cond, results, errors);
      case "and":
        return cond.conds.every((c) => condition(c, results, errors));
      case "or":
        return cond.conds.some((c) => condition(c, results, errors));
      case "is_autocommit":
        return !db.isTransaction;
      default:
        throw new StatementError("unknown batch condition", "HRANA_PROTO_ERROR");
    }
  }

  function asError(error: unknown): HranaError {
    if (error instanceof StatementError) return { message: error.message, code: error.code };
    return { message: error instanceof Error ? error.message : String(error), code: "SQLITE_ERROR" };
  }

  function handle(request: HranaRequest, stream: Stream): unknown {
    switch (request.type) {
      case "execute":
        return { type: "execute", result: runStatement(request.stmt, stream) };
      case "batch": {
        const results: (StmtResult | null)[] = [];
        const errors: (HranaError | null)[] = [];
        for (const step of request.batch.steps) {
          if (!condition(step.condition, results, errors)) {
            results.push(null);
            errors.push(null);
            continue;
          }
          try {
            results.push(runStatement(step.stmt, stream));
            errors.push(null);
          } catch (error) {
            results.push(null);
            errors.push(asError(error));
          }
        }
        return { type: "batch", result: { step_results: results, step_errors: errors } };
      }
      case "sequence": {
        counts.statements += 1;
        try {
          db.exec(sqlOf(request, stream));
        } catch (error) {
          const e = error as { message?: string };
          throw new StatementError(`SQLite error: ${e.message ?? String(error)}`, "SQLITE_ERROR");
        }
        return { type: "sequence" };
      }
      case "store_sql":
        stream.sqls.set(request.sql_id, request.sql);
        return { type: "store_sql" };
      case "close_sql":
        stream.sqls.delete(request.sql_id);
        return { type: "close_sql" };
      case "get_autocommit":
        return { type: "get_autocommit", is_autocommit: !db.isTransaction };
      case "close":
        return { type: "close" };
      default:
        throw new StatementError(
          `request type ${JSON.stringify((request as { type: unknown }).type)} is not supported`,
          "HRANA_PROTO_ERROR",
        );
    }
  }

  /** Whether a statement may change the database. */
  function writes(sql: string): boolean {
    const keyword = /^\s*(?:--[^\n]*\n\s*)*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "";
    return !["SELECT", "EXPLAIN", "BEGIN", "COMMIT", "END", "ROLLBACK", "VALUES"].includes(keyword);
  }

  function classify(requests: HranaRequest[], stream: Stream): "read" | "write" | null {
    const sqls: string[] = [];
    for (const request of requests) {
      if (request.type === "execute") sqls.push(safeSql(request.stmt, stream));
      else if (request.type === "batch") sqls.push(...request.batch.steps.map((step) => safeSql(step.stmt, stream)));
      else if (request.type === "sequence") sqls.push(safeSql(request, stream));
      else if (request.type === "store_sql") stream.sqls.set(request.sql_id, request.sql);
    }
    if (sqls.length === 0) return null;
    return sqls.some(writes) ? "write" : "read";
  }
  function safeSql(stmt: { sql?: string; sql_id?: number }, stream: Stream): string {
    try {
      return sqlOf(stmt, stream);
    } catch {
      return "";
    }
  }

  async function pipeline(body: { baton?: string | null; requests?: HranaRequest[] }): Promise<{ status: number; json: unknown }> {
    if (!Array.isArray(body.requests)) return { status: 400, json: { message: "requests must be an array", code: "HRANA_PROTO_ERROR" } };
    let baton = body.baton ?? null;
    let stream: Stream | undefined;
    if (baton !== null) {
      stream = streams.get(baton);
      if (!stream) return { status: 400, json: { message: "the baton is unknown or expired", code: "STREAM_EXPIRED" } };
      streams.delete(baton);
    }
    stream ??= { sqls: new Map(), lastUsed: Date.now() };
    // One stream at a time inside an explicit transaction (one SQLite connection).
    while (holder !== null && holder.baton !== baton) {
      if (Date.now() - holder.since > TRANSACTION_HOLD_MS) {
        if (db.isTransaction) db.exec("ROLLBACK");
        holder = null;
        break;
      }
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    const kind = classify(body.requests, stream);
    if (kind === null) counts.closeOnly += 1;
    else {
      counts.calls += 1;
      counts[kind] += 1;
    }
    const results = body.requests.map((request) => {
      try {
        return { type: "ok", response: handle(request, stream) };
      } catch (error) {
        return { type: "error", error: asError(error) };
      }
    });
    const closed = body.requests.some((request) => request.type === "close");
    if (closed) {
      baton = null;
    } else {
      batonCounter += 1;
      baton = `s${batonCounter}-${Math.random().toString(36).slice(2)}`;
      stream.lastUsed = Date.now();
      streams.set(baton, stream);
    }
    if (db.isTransaction && baton !== null) holder = { baton, since: holder?.since ?? Date.now() };
    else {
      if (db.isTransaction) db.exec("ROLLBACK");
      holder = null;
      for (const wake of waiting.splice(0)) wake();
    }
    return { status: 200, json: { baton, base_url: null, results } };
  }

  setInterval(() => {
    const now = Date.now();
    for (const [baton, stream] of streams) if (now - stream.lastUsed > STREAM_IDLE_MS && holder?.baton !== baton) streams.delete(baton);
  }, 5_000).unref();

  function query(sql: string, args: unknown[]): unknown[] {
    const statement = db.prepare(sql);
    statement.setReadBigInts(false);
    return statement.all(...(args as never[]));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://stand-in");
        const send = (status: number, json: unknown) => {
          const text = JSON.stringify(json);
          res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
          res.end(text);
        };
        const parse = (): Record<string, unknown> => (chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString("utf8")));
        try {
          if (url.pathname.startsWith("/__stand-in/")) {
            const route = `${req.method} ${url.pathname.slice("/__stand-in/".length)}`;
            if (route === "GET counts") return send(200, { ...counts, outage: outage && outage.until > Date.now() ? outage : null });
            if (route === "POST reset") {
              for (const key of Object.keys(counts) as (keyof StandInCounts)[]) counts[key] = 0;
              return send(200, counts);
            }
            if (route === "POST outage") {
              const { seconds, mode } = parse() as { seconds?: unknown; mode?: unknown };
              if (typeof seconds !== "number" || !(seconds >= 0)) return send(400, { error: "seconds must be a number >= 0" });
              if (mode !== undefined && mode !== "503" && mode !== "drop") return send(400, { error: 'mode must be "503" or "drop"' });
              outage = { until: Date.now() + seconds * 1000, mode: (mode as OutageMode | undefined) ?? "503" };
              return send(200, outage);
            }
            if (route === "POST query") {
              const { sql, args } = parse() as { sql?: unknown; args?: unknown };
              if (typeof sql !== "string") return send(400, { error: "sql must be a string" });
              return send(200, { rows: query(sql, Array.isArray(args) ? args : []) });
            }
            return send(404, { error: `no control route ${route}` });
          }
          if (req.method === "GET" && (url.pathname === "/" || url.pathname === "/health")) return send(200, { ok: true });
          if (req.method === "GET" && url.pathname === "/v2") return send(200, { version: 2 });
          if (req.method === "POST" && url.pathname === "/v2/pipeline") {
            if (outage && outage.until > Date.now()) {
              counts.refused += 1;
              if (outage.mode === "drop") {
                req.socket.destroy();
                return;
              }
              res.writeHead(503, { "content-type": "text/plain" });
              return res.end("the database is unavailable (stand-in outage)");
            }
            const result = await pipeline(parse() as { baton?: string | null; requests?: HranaRequest[] });
            return send(result.status, result.json);
          }
          res.writeHead(404, { "content-type": "text/plain" });
          res.end(`not found: ${req.method} ${url.pathname}`);
        } catch (error) {
          send(500, { message: error instanceof Error ? error.message : String(error), code: "INTERNAL" });
        }
      })();
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(port, "127.0.0.1", () => {
    const address = server.address();
    console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : port, db: dbFile }));
  });
  const shutdown = () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    db.close();
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

/** The project's migrations, in order (drizzle's files: statements split by breakpoints). */
function applyMigrations(db: { exec: (sql: string) => void }): void {
  const files = readdirSync(MIGRATIONS_DIR)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  for (const file of files) {
    const sql = readFileSync(path.join(MIGRATIONS_DIR, file), "utf8");
    for (const statement of sql.split("--> statement-breakpoint")) {
      if (statement.trim() !== "") db.exec(statement);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The bench's handle on it

export type LibsqlStandIn = {
  /** http://127.0.0.1:<port>: the worker's LIBSQL_URL. */
  url: string;
  process: ChildProcess;
  counts: () => Promise<StandInCounts>;
  reset: () => Promise<void>;
  /** Makes the database unavailable for `seconds` from now. */
  outage: (seconds: number, mode?: OutageMode) => Promise<void>;
  /** Runs SQL on the database directly (not counted). */
  query: <Row = Record<string, unknown>>(sql: string, args?: unknown[]) => Promise<Row[]>;
  /** Stops the server and deletes its database. */
  stop: () => Promise<void>;
};

/** Starts the stand-in in a child process on a free port, with a fresh migrated database in a temporary directory. */
export async function startLibsqlStandIn(): Promise<LibsqlStandIn> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "libsql-stand-in-"));
  const child = spawn(
    process.execPath,
    ["--no-warnings", fileURLToPath(import.meta.url), "--port", "0", "--db", path.join(dir, "db.sqlite")],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const line = text.split("\n")[0];
      if (text.includes("\n") && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once("exit", (code) => reject(new Error(`the libSQL stand-in exited during startup (code ${code})`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const control = async (route: string, body?: unknown) => {
    const response = await fetch(`${base}/__stand-in/${route}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`stand-in ${route}: ${JSON.stringify(json)}`);
    return json;
  };
  const onExit = () => child.kill("SIGKILL");
  process.once("exit", onExit);
  return {
    url: base,
    process: child,
    counts: async () => (await control("counts")) as unknown as StandInCounts,
    reset: async () => {
      await control("reset", {});
    },
    outage: async (seconds, mode = "503") => {
      await control("outage", { seconds, mode });
    },
    query: async <Row>(sql: string, args: unknown[] = []) => (await control("query", { sql, args })).rows as Row[],
    stop: async () => {
      process.off("exit", onExit);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name: string) => {
    const index = process.argv.indexOf(name);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const port = Number(arg("--port") ?? "8080");
  const dbFile = arg("--db") ?? path.join(mkdtempSync(path.join(os.tmpdir(), "libsql-stand-in-")), "db.sqlite");
  if (!Number.isInteger(port) || port < 0) throw new Error("--port must be a whole number");
  await serve(port, dbFile);
}

/**
 * Three stand-in webhook receivers on 127.0.0.1 for bench:webhooks (issue 25 §4), in a process of
 * their own (off the load generator's event loop): `healthy` answers 200 at once, `slow` after 1 to
 * 3 s, `down` is unavailable from `/down` until its time is up (HTTP 503, or, in `refuse` mode, no
 * listener at all: connections refused), then healthy. Each verifies every request's signature
 * with the npm `standardwebhooks` package (`new Webhook(secret).verify(body, headers)`, the
 * receivers' own library, with its 5-minute timestamp tolerance) and counts deliveries by
 * webhook-id: the first 2xx for an id is the delivery, a later 2xx for the same id a duplicate.
 *
 * Run as a script (`node test/support/webhook-receivers.ts`), it prints one JSON line with the
 * ports; the bench drives it through a control server: POST /secrets, POST /down, GET /report.
 * `startWebhookReceivers()` starts it and returns that client.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";

export const RECEIVER_NAMES = ["healthy", "slow", "down"] as const;
export type ReceiverName = (typeof RECEIVER_NAMES)[number];
export type DownMode = "503" | "refuse";

/** What one receiver saw. `emails`: the `data.email` of each delivered event (first 2xx per webhook-id). */
export type ReceiverReport = {
  /** Requests that reached it (while refusing connections nothing reaches it: the worker's attempts count those). */
  requests: number;
  /** Requests answered 503 while down. */
  refused: number;
  /** webhook-ids answered 2xx at least once (delivered). */
  delivered: number;
  /** 2xx answers to an id already delivered. */
  duplicates: number;
  /** Requests whose signature the package refused, by its reason (answered 400, not delivered). */
  badSignatures: number;
  badSignatureReasons: Record<string, number>;
  types: Record<string, number>;
  emails: string[];
  firstDeliveredAt: number;
  lastDeliveredAt: number;
};
export type Report = Record<ReceiverName, ReceiverReport>;

export type WebhookReceivers = {
  urls: Record<ReceiverName, string>;
  process: ChildProcess;
  /** Each endpoint's signing secret (`whsec_…`), once the endpoints exist. */
  setSecrets(secrets: Record<ReceiverName, string>): Promise<void>;
  /** Makes `down` unavailable for `seconds` from now. */
  goDown(seconds: number, mode: DownMode): Promise<void>;
  report(): Promise<Report>;
};

/** Starts the receivers' process (detached: its own process group, stopped with dev-server's stopGroup). */
export async function startWebhookReceivers(host: string): Promise<WebhookReceivers> {
  const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", fileURLToPath(import.meta.url), host], {
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  const ports = await new Promise<Record<ReceiverName | "control", number>>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
    child.once("exit", () => reject(new Error("the stand-in receivers exited during startup")));
  });
  const control = `http://${host}:${ports.control}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${control}${path}`, { method: "POST", body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`receivers' control ${path}: HTTP ${response.status}`);
  };
  return {
    urls: Object.fromEntries(RECEIVER_NAMES.map((name) => [name, `http://${host}:${ports[name]}/hooks/${name}`])) as Record<
      ReceiverName,
      string
    >,
    process: child,
    setSecrets: (secrets) => post("/secrets", secrets),
    goDown: (seconds, mode) => post("/down", { seconds, mode }),
    report: async () => (await (await fetch(`${control}/report`)).json()) as Report,
  };
}

// ---------------------------------------------------------------------------------------------
// The receivers' process

type Verifier = { verify(payload: string, headers: Record<string, string>): unknown };

function emptyReport(): ReceiverReport {
  return {
    requests: 0,
    refused: 0,
    delivered: 0,
    duplicates: 0,
    badSignatures: 0,
    badSignatureReasons: {},
    types: {},
    emails: [],
    firstDeliveredAt: 0,
    lastDeliveredAt: 0,
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function listen(server: Server, host: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}

async function serve(host: string): Promise<void> {
  const { Webhook } = (await import("standardwebhooks")) as { Webhook: new (secret: string) => Verifier };
  const verifiers = new Map<ReceiverName, Verifier>();
  const reports = Object.fromEntries(RECEIVER_NAMES.map((name) => [name, emptyReport()])) as Report;
  const seen = Object.fromEntries(RECEIVER_NAMES.map((name) => [name, new Set<string>()])) as Record<ReceiverName, Set<string>>;
  let downUntil = 0;
  let reopenTimer: NodeJS.Timeout | undefined;

  const receive = async (name: ReceiverName, request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const report = reports[name];
    report.requests += 1;
    if (name === "down" && Date.now() < downUntil) {
      report.refused += 1;
      response.writeHead(503, { "content-type": "text/plain", "retry-after": "60" }).end("down for the bench");
      return;
    }
    if (name === "slow") await new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 2000));
    const headers = Object.fromEntries(
      ["webhook-id", "webhook-timestamp", "webhook-signature"].map((header) => [header, String(request.headers[header] ?? "")]),
    );
    let envelope: { type?: string; data?: { email?: string } };
    try {
      const verifier = verifiers.get(name);
      if (!verifier) throw new Error("no secret set yet");
      envelope = verifier.verify(body, headers) as typeof envelope;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      report.badSignatures += 1;
      report.badSignatureReasons[reason] = (report.badSignatureReasons[reason] ?? 0) + 1;
      response.writeHead(400, { "content-type": "text/plain" }).end("bad signature");
      return;
    }
    const id = headers["webhook-id"]!;
    if (seen[name].has(id)) report.duplicates += 1;
    else {
      seen[name].add(id);
      report.delivered += 1;
      report.lastDeliveredAt = Date.now();
      report.firstDeliveredAt ||= report.lastDeliveredAt;
      const type = String(envelope.type);
      report.types[type] = (report.types[type] ?? 0) + 1;
      if (typeof envelope.data?.email === "string") report.emails.push(envelope.data.email);
    }
    response.writeHead(200, { "content-type": "text/plain" }).end("ok");
  };

  const servers = new Map<ReceiverName, Server>();
  const ports: Record<string, number> = {};
  const open = async (name: ReceiverName, port = 0) => {
    const server = createServer((request, response) => {
      receive(name, request, response).catch(() => response.writeHead(500).end());
    });
    servers.set(name, server);
    ports[name] = await listen(server, host, port);
  };
  for (const name of RECEIVER_NAMES) await open(name);

  const control = createServer(async (request, response) => {
    const body = await readBody(request);
    if (request.method === "POST" && request.url === "/secrets") {
      const secrets = JSON.parse(body) as Record<ReceiverName, string>;
      for (const name of RECEIVER_NAMES) verifiers.set(name, new Webhook(secrets[name]));
      return response.writeHead(204).end();
    }
    if (request.method === "POST" && request.url === "/down") {
      const { seconds, mode } = JSON.parse(body) as { seconds: number; mode: DownMode };
      downUntil = Date.now() + seconds * 1000;
      if (mode === "refuse") {
        // No listener until the time is up, then a new one on the same port.
        const down = servers.get("down")!;
        clearTimeout(reopenTimer);
        if (down.listening) {
          down.close();
          down.closeAllConnections();
        }
        reopenTimer = setTimeout(() => void open("down", ports.down).catch((error: unknown) => console.error(error)), seconds * 1000);
      }
      return response.writeHead(204).end();
    }
    if (request.method === "GET" && request.url === "/report") {
      return response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reports));
    }
    response.writeHead(404).end();
  });
  ports.control = await listen(control, host);
  console.log(JSON.stringify(ports));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  serve(process.argv[2] ?? "127.0.0.1").catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

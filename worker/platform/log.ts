/**
 * Structured log lines: one JSON object per line, so Workers Logs can filter on `event`.
 * Visitors never see these; they are the only place failures of e-mail delivery show.
 *
 * A log line never carries a visitor's personal data or a secret: no e-mail addresses, message
 * text, codes or tokens. Callers log ids, counts, route patterns and error descriptions, and
 * describeError drops what a database error quotes of the query's values.
 */
type Level = "info" | "warn" | "error";

export function log(level: Level, event: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, event, ...fields, time: new Date().toISOString() });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/**
 * A short, loggable description of anything thrown. drizzle's query errors quote the query and
 * its parameters (a visitor's e-mail, a message): only the database's own reason is kept.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return redact(String(error));
  const cause = error.cause instanceof Error ? error.cause : undefined;
  if (error.name === "DrizzleQueryError" || /^Failed query:/.test(error.message)) {
    return `DatabaseError: ${cause ? redact(`${cause.name}: ${cause.message}`) : "the query failed"}`;
  }
  return redact(`${error.name}: ${error.message}${cause ? `: ${cause.message}` : ""}`);
}

/** Cuts a description at a quoted parameter list, and never lets an e-mail address through. */
function redact(text: string): string {
  return text
    .replace(/\bparams:[\s\S]*$/i, "params: [redacted]")
    .replace(/[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g, "[e-mail]")
    .slice(0, 500);
}

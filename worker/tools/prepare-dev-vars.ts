/**
 * `npm start` runs this first: creates .dev.vars from .dev.vars.example when it does not exist,
 * writes ENVIRONMENT=development into it when it names no environment (the worker treats
 * anything else as production) and OPERATOR_EMAILS=operator@example.com when it names no
 * operator (the console's local sign-in), example sender settings (SENDER_NAME,
 * SENDER_POSTAL_ADDRESS) when they are missing or empty, so campaigns can be sent locally, and gives every empty sign-in secret (AUTH_JWT_SECRET,
 * AUTH_ADMIN_KEY, WEBHOOK_SECRETS_KEY) a random value, so sign-in works locally without anyone inventing or
 * committing a secret. Existing values are never changed. Runs on Node 22 (type stripping),
 * from the repository root.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const GENERATED_SECRETS = ["AUTH_JWT_SECRET", "AUTH_ADMIN_KEY", "WEBHOOK_SECRETS_KEY"];

const path = ".dev.vars";
const created = !existsSync(path);
const original = readFileSync(created ? ".dev.vars.example" : path, "utf8");
const filled: string[] = [];
let text = original;
for (const name of GENERATED_SECRETS) {
  const line = new RegExp(`^${name}=[ \\t]*$`, "m");
  if (line.test(text)) {
    text = text.replace(line, `${name}=${randomBytes(32).toString("hex")}`);
    filled.push(name);
  } else if (!new RegExp(`^${name}=`, "m").test(text)) {
    text = `${text.trimEnd()}\n${name}=${randomBytes(32).toString("hex")}\n`;
    filled.push(name);
  }
}
// Locally, one signs in to the operator console as this address and reads the code in the dev mailbox.
if (!/^OPERATOR_EMAILS=/m.test(text)) {
  text = `${text.trimEnd()}\nOPERATOR_EMAILS=operator@example.com\n`;
  filled.push("OPERATOR_EMAILS (operator@example.com)");
}
// Campaigns name their sender in every e-mail's footer; locally these example values let them be sent.
const EXAMPLE_SENDER: [string, string][] = [
  ["SENDER_NAME", "Homework Helper (local example)"],
  ["SENDER_POSTAL_ADDRESS", "1 Example Street, Springfield, 00000"],
];
for (const [name, value] of EXAMPLE_SENDER) {
  const line = new RegExp(`^${name}=[ \\t]*$`, "m");
  if (line.test(text)) text = text.replace(line, `${name}=${value}`);
  else if (!new RegExp(`^${name}=`, "m").test(text)) text = `${text.trimEnd()}\n${name}=${value}\n`;
  else continue;
  filled.push(`${name} (an example)`);
}
if (!/^ENVIRONMENT=/m.test(text)) {
  text = `ENVIRONMENT=development\n${text}`;
  filled.push("ENVIRONMENT (development)");
}
if (created || text !== original) writeFileSync(path, text);
if (created) console.log("Created .dev.vars from .dev.vars.example.");
if (filled.length > 0) console.log(`Wrote local values for ${filled.join(", ")} into .dev.vars.`);

/**
 * The operator console's API (/api/admin): what other features use of it. Minimal for now
 * (the health check asks who an operator is); its owner lists the rest here.
 */

export { operatorOf } from "./operator";

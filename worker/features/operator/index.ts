/**
 * The operator's console, as the other features use it: how the audit trail names a person
 * (never the address), and the data-access answer of a person's records (what /api/me's data
 * download returns too).
 */
export { subjectHash } from "./audit";
export { personJson } from "./json";

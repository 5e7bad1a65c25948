/**
 * The operator console's API (docs/api.md "Operator API"), as the rest of the worker uses it:
 * who is an operator (the health check asks too), the audit trail (and how it names a person:
 * never the address), and what names a person (look-up and erasure: a person's own data download
 * and self-erasure on /api/me are the same, audited as "self"). The routes (routes.ts) are
 * mounted by worker/api.ts.
 */

export { ADMIN_KEY_OPERATOR, operatorOf, type Operator, type OperatorEnv } from "./operator";
export { recordAction, recordDoneAction, subjectHash } from "./audit";
export { personJson } from "./json";
export { erasePerson, lookUpPerson } from "./people";

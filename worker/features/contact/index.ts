/**
 * The generic forms (POST /api/forms/:form, routes.ts): each form definition of worker/shared/forms.ts
 * is a declaration of the public submission pipeline; a submission is stored and the team notified.
 */
export { formRoutes } from "./routes";

/**
 * The product's name, used by the site's content module and by the e-mails the worker sends,
 * so a rename is one edit.
 */
export const BRAND_NAME = "Homework Helper";

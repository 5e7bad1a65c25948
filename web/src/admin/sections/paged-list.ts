/** Rows per page of the waitlist and contact tables. */
export const PAGE_SIZE = 25;

-- Addresses are stored in one canonical form from now on (issue 22, worker/shared/text.ts): the
-- domain through IDNA to ASCII, the local part NFKC and lower-cased. SQL cannot do IDNA, so the
-- rows stored before are brought to it by the cron, a few hundred per run
-- (worker/features/addresses/canonicalize.ts); this table holds how far each such backfill has got.
CREATE TABLE `hwh_backfills` (
	`name` text PRIMARY KEY NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`finished_at` text,
	`updated_at` text NOT NULL
);

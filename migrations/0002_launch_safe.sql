-- Rate-limit counters of every kind (sign-in, public forms, notification budget, code e-mails per mailbox) in one table.
CREATE TABLE `hwh_rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
DROP TABLE `hwh_auth_rate_limits`;--> statement-breakpoint
-- Sign-in codes are now keyed by e-mail address (a user exists only after a verified code); the
-- row holds the address's cooldown, the hourly and daily caps count per mailbox in hwh_rate_limits.
-- Codes live ten minutes: the old rows are dropped rather than converted, which at worst
-- makes someone mid-sign-in ask for a new code.
DROP TABLE `hwh_auth_codes`;--> statement-breakpoint
CREATE TABLE `hwh_auth_codes` (
	`email` text PRIMARY KEY NOT NULL,
	`code_hash` text,
	`user_metadata` text,
	`sent_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Users created by a code request that was never verified are not accounts: remove them.
DELETE FROM `hwh_auth_users` WHERE `email_confirmed_at` IS NULL AND `id` NOT IN (SELECT `user_id` FROM `hwh_auth_sessions`);

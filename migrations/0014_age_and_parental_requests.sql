-- Students and their parents (issue 23): entries keep an age band (existing ones "unknown"), the
-- country, whether a parent joined on behalf of a child and when the parent agreed; a child's request
-- waits for the parent's answer in hwh_parental_requests (the parent's address only), answers counted.
CREATE TABLE `hwh_parental_outcomes` (
	`day` text NOT NULL,
	`outcome` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `outcome`)
);
--> statement-breakpoint
CREATE TABLE `hwh_parental_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`parent_email` text NOT NULL,
	`mailbox_key` text NOT NULL,
	`age_band` text NOT NULL,
	`country` text,
	`nonce` text NOT NULL,
	`created_at` text NOT NULL,
	`origin` text DEFAULT '' NOT NULL,
	`sent_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`locked_until` text,
	`claim` text,
	`last_error` text
);
--> statement-breakpoint
CREATE INDEX `hwh_parental_requests_created_idx` ON `hwh_parental_requests` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `hwh_parental_requests_due_idx` ON `hwh_parental_requests` (`id`,`next_attempt_at`,`locked_until`) WHERE "hwh_parental_requests"."sent_at" is null;--> statement-breakpoint
CREATE INDEX `hwh_parental_requests_mailbox_idx` ON `hwh_parental_requests` (`mailbox_key`,`created_at`);--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `age_band` text DEFAULT 'unknown' NOT NULL;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `country` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `on_behalf_of_child` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `parental_consent_at` text;
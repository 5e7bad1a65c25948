CREATE TABLE `hwh_audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`action` text NOT NULL,
	`operator` text NOT NULL,
	`subject_hash` text,
	`details` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `utm_source` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `utm_medium` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `utm_campaign` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `referrer_host` text;--> statement-breakpoint
CREATE INDEX `hwh_waitlist_created_idx` ON `hwh_waitlist` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `hwh_form_submissions_form_created_idx` ON `hwh_form_submissions` (`form_name`,`created_at`,`id`);
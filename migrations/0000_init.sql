CREATE TABLE `hwh_dev_mailbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`receivers` text NOT NULL,
	`title` text NOT NULL,
	`body_html` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hwh_form_submissions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`form_name` text NOT NULL,
	`form_data` text NOT NULL,
	`email_sent` integer DEFAULT false NOT NULL,
	`email_sent_at` text,
	`notify_attempts` integer DEFAULT 0 NOT NULL,
	`notify_last_error` text,
	`notify_next_attempt_at` text,
	`notify_locked_until` text,
	`notify_claim` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hwh_form_submissions_pending_idx` ON `hwh_form_submissions` (`email_sent`,`notify_next_attempt_at`);--> statement-breakpoint
CREATE TABLE `hwh_waitlist` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`source` text,
	`email_sent` integer DEFAULT false NOT NULL,
	`email_sent_at` text,
	`notify_attempts` integer DEFAULT 0 NOT NULL,
	`notify_last_error` text,
	`notify_next_attempt_at` text,
	`notify_locked_until` text,
	`notify_claim` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hwh_waitlist_email_unique` ON `hwh_waitlist` (`email`);--> statement-breakpoint
CREATE INDEX `hwh_waitlist_pending_idx` ON `hwh_waitlist` (`email_sent`,`notify_next_attempt_at`);
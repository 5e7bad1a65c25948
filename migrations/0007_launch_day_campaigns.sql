CREATE TABLE `hwh_campaign_recipients` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`entry_id` integer NOT NULL,
	`place` integer,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`claim` text,
	`locked_until` text,
	`last_error` text,
	`skip_reason` text,
	`sent_at` text,
	`dead_lettered_at` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hwh_campaign_recipients_pair_idx` ON `hwh_campaign_recipients` (`campaign_id`,`entry_id`);--> statement-breakpoint
CREATE INDEX `hwh_campaign_recipients_status_idx` ON `hwh_campaign_recipients` (`campaign_id`,`status`,`id`);--> statement-breakpoint
CREATE TABLE `hwh_campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`audience_kind` text NOT NULL,
	`wave_size` integer,
	`utm_source` text,
	`status` text DEFAULT 'draft' NOT NULL,
	`send_at` text,
	`audience_size` integer DEFAULT 0 NOT NULL,
	`expand_cursor` text,
	`expanded_at` text,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`started_at` text,
	`finished_at` text
);
--> statement-breakpoint
CREATE INDEX `hwh_campaigns_status_idx` ON `hwh_campaigns` (`status`,`send_at`);--> statement-breakpoint
CREATE TABLE `hwh_subscription_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`mailbox_key` text NOT NULL,
	`event` text NOT NULL,
	`source` text NOT NULL,
	`campaign_id` integer,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hwh_subscription_events_mailbox_idx` ON `hwh_subscription_events` (`mailbox_key`,`id`);--> statement-breakpoint
CREATE TABLE `hwh_suppressions` (
	`mailbox_key` text PRIMARY KEY NOT NULL,
	`reason` text NOT NULL,
	`source` text NOT NULL,
	`campaign_id` integer,
	`created_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `hwh_dev_mailbox` ADD `headers` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `invited_at` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `invited_campaign_id` integer;--> statement-breakpoint
CREATE INDEX `hwh_waitlist_uninvited_rank_idx` ON `hwh_waitlist` (`rank_key`,`confirm_seq`) WHERE "hwh_waitlist"."rank_key" is not null and "hwh_waitlist"."invited_at" is null;
-- Signed webhooks and Slack (issue 25; worker/features/webhooks): the endpoints, the events stored with
-- the change that caused them, and one delivery per event and endpoint (README "Webhooks and Slack").
CREATE TABLE `hwh_webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` integer NOT NULL,
	`endpoint_id` integer NOT NULL,
	`person` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_at` text NOT NULL,
	`claim` text,
	`locked_until` text,
	`last_status` integer,
	`last_error` text,
	`last_answer` text,
	`last_at` text,
	`delivered_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hwh_webhook_deliveries_webhook_id_idx` ON `hwh_webhook_deliveries` (`webhook_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `hwh_webhook_deliveries_pair_idx` ON `hwh_webhook_deliveries` (`event_id`,`endpoint_id`);--> statement-breakpoint
CREATE INDEX `hwh_webhook_deliveries_due_idx` ON `hwh_webhook_deliveries` (`status`,`next_at`);--> statement-breakpoint
CREATE INDEX `hwh_webhook_deliveries_person_idx` ON `hwh_webhook_deliveries` (`person`,`endpoint_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `hwh_webhook_deliveries_endpoint_idx` ON `hwh_webhook_deliveries` (`endpoint_id`,`status`,`id`);--> statement-breakpoint
CREATE TABLE `hwh_webhook_endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`kind` text NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`previous_secret` text,
	`previous_secret_until` text,
	`enabled` integer DEFAULT true NOT NULL,
	`disabled_reason` text,
	`disabled_at` text,
	`failure_run` integer DEFAULT 0 NOT NULL,
	`failing_since` text,
	`paused_until` text,
	`last_success_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hwh_webhook_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`uid` text NOT NULL,
	`type` text NOT NULL,
	`person` text,
	`payload` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hwh_webhook_events_key_idx` ON `hwh_webhook_events` (`key`);--> statement-breakpoint
CREATE INDEX `hwh_webhook_events_person_idx` ON `hwh_webhook_events` (`person`);
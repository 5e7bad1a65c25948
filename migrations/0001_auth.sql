CREATE TABLE `hwh_auth_codes` (
	`user_id` text PRIMARY KEY NOT NULL,
	`code_hash` text,
	`sent_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`failed_attempts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hwh_auth_rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `hwh_auth_refresh_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`session_id` text NOT NULL,
	`revoked_at` text,
	`replaced_by_hash` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hwh_auth_refresh_tokens_token_hash_unique` ON `hwh_auth_refresh_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `hwh_auth_refresh_tokens_session_idx` ON `hwh_auth_refresh_tokens` (`session_id`);--> statement-breakpoint
CREATE TABLE `hwh_auth_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`refreshed_at` text,
	`user_agent` text,
	`ip` text
);
--> statement-breakpoint
CREATE INDEX `hwh_auth_sessions_user_idx` ON `hwh_auth_sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `hwh_auth_users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`email_confirmed_at` text,
	`last_sign_in_at` text,
	`user_metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hwh_auth_users_email_unique` ON `hwh_auth_users` (`email`);
-- The joiner's journey (issue 16): confirmation, places and referrals on hwh_waitlist, the joiner-mail
-- outbox, and the dev mailbox's plain-text alternative. Rows stored before are pending (unconfirmed,
-- no code, mailbox_key '' until the entry joins again or confirms). confirm_seq and referral_code are
-- unique (NULLs apart); a place is two counts over hwh_waitlist_rank_idx (confirmed entries only, covering).
CREATE TABLE `hwh_joiner_mail` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`entry_id` integer NOT NULL,
	`kind` text NOT NULL,
	`origin` text DEFAULT '' NOT NULL,
	`created_at` text NOT NULL,
	`sent_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text,
	`locked_until` text,
	`claim` text,
	`last_error` text
);
--> statement-breakpoint
CREATE INDEX `hwh_joiner_mail_due_idx` ON `hwh_joiner_mail` (`id`,`next_attempt_at`,`locked_until`) WHERE `sent_at` IS NULL;--> statement-breakpoint
CREATE INDEX `hwh_joiner_mail_entry_idx` ON `hwh_joiner_mail` (`entry_id`);--> statement-breakpoint
ALTER TABLE `hwh_dev_mailbox` ADD `body_text` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `confirmed_at` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `confirm_seq` integer;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `referral_code` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `referred_by` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `referrals_confirmed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `rank_key` integer;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `mailbox_key` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `referral_network` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `confirm_claim` text;--> statement-breakpoint
CREATE UNIQUE INDEX `hwh_waitlist_confirm_seq_idx` ON `hwh_waitlist` (`confirm_seq`);--> statement-breakpoint
CREATE UNIQUE INDEX `hwh_waitlist_referral_code_idx` ON `hwh_waitlist` (`referral_code`);--> statement-breakpoint
CREATE INDEX `hwh_waitlist_rank_idx` ON `hwh_waitlist` (`rank_key`,`confirm_seq`) WHERE `rank_key` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `hwh_waitlist_referred_by_idx` ON `hwh_waitlist` (`referred_by`,`confirmed_at`) WHERE `referred_by` IS NOT NULL;
CREATE TABLE `hwh_referral_credits` (
	`referral_code` text NOT NULL,
	`mailbox_key` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hwh_referral_credits_pair_idx` ON `hwh_referral_credits` (`referral_code`,`mailbox_key`);--> statement-breakpoint
-- Referrals counted before this table existed: each (referrer's code, friend's mailbox) pair that
-- earned a place, so a friend who leaves and joins again never counts twice for the same referrer.
INSERT OR IGNORE INTO `hwh_referral_credits` (`referral_code`, `mailbox_key`, `created_at`)
SELECT j.`referred_by`, j.`mailbox_key`, j.`confirmed_at` FROM `hwh_waitlist` j
WHERE j.`referred_by` IS NOT NULL AND j.`confirmed_at` IS NOT NULL AND j.`mailbox_key` <> ''
  AND EXISTS (SELECT 1 FROM `hwh_waitlist` r WHERE r.`referral_code` = j.`referred_by` AND r.`mailbox_key` <> j.`mailbox_key`);

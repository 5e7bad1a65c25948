ALTER TABLE `hwh_referral_credits` ADD `boost` integer;--> statement-breakpoint
ALTER TABLE `hwh_referral_credits` ADD `voided_at` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `held_at` text;
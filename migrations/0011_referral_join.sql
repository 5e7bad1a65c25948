-- The join that carried an entry's referral (issue 22): its confirmation link carries the value, and only a
-- confirmation through such a link counts the referral. Entries pending now get none: the links already sent
-- carry none, so they still confirm, and count no referral.
ALTER TABLE `hwh_joiner_mail` ADD `referral_join` text;--> statement-breakpoint
ALTER TABLE `hwh_waitlist` ADD `referral_join` text;
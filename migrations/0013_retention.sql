CREATE TABLE `hwh_retention_deletions` (
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`day`, `kind`)
);
--> statement-breakpoint
CREATE INDEX `hwh_waitlist_network_kept_idx` ON `hwh_waitlist` (`confirmed_at`,`id`) WHERE "hwh_waitlist"."referral_network" is not null;
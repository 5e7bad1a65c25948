-- The mail queue (issue 24 §2): jobs whose batch could not be recorded through all of the queue's
-- retries wait here, one row per outbox row, for the console's "retry" (the row stays unsent).
CREATE TABLE `hwh_mail_dead_letters` (
	`kind` text NOT NULL,
	`row_id` integer NOT NULL,
	`error` text NOT NULL,
	`dead_lettered_at` text NOT NULL,
	PRIMARY KEY(`kind`, `row_id`)
);

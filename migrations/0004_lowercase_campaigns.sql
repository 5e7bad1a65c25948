-- Campaign values are stored lower-cased from now on (worker/shared/waitlist.ts,
-- storedCampaignValue), so "TikTok" and "tiktok" count as one campaign. This lower-cases the rows
-- stored before. SQLite's lower() changes ASCII letters only: a value with other capital letters
-- ("Ünï") keeps them, while a new join stores it fully lower-cased. Referrer hosts were always
-- stored lower-cased (host names are case-insensitive); they are included so every row agrees.
UPDATE `hwh_waitlist` SET
	`utm_source` = lower(`utm_source`),
	`utm_medium` = lower(`utm_medium`),
	`utm_campaign` = lower(`utm_campaign`),
	`referrer_host` = lower(`referrer_host`)
WHERE `utm_source` <> lower(`utm_source`)
	OR `utm_medium` <> lower(`utm_medium`)
	OR `utm_campaign` <> lower(`utm_campaign`)
	OR `referrer_host` <> lower(`referrer_host`);

import type { MiddlewareHandler } from "hono";
import { readConfig, type AppConfig } from "./platform/config/config";
import { openDatabase } from "./platform/db/client";
import type { PlatformEnv } from "./platform/http/env";
import { createRepository, type Repository } from "./repository";
import { emailServiceTransport } from "./platform/mail/email-service";
import { selectTransport, type MailTransport } from "./platform/mail/transport";
// The messages' module only (it imports nothing of Deps): the feature's index would lead back here.
import { campaignQueue, type CampaignQueue } from "./features/campaigns/messages";
import { mailQueue, type MailQueue } from "./features/mail-queue/jobs";
import { joinQueue, type JoinQueue } from "./features/joins/messages";
import { backlog, type Backlog } from "./features/joins/backlog";
import { webhookQueue, type WebhookQueue } from "./features/webhooks/queue";

/**
 * What every handler, service and the cron work with, built from the worker's env: one object,
 * passed whole (the parts are cheap to build and nothing is kept between requests).
 */
export type Deps = {
  config: AppConfig;
  /** The repository; reading it throws when the configured database cannot be used (databaseProblem). */
  readonly repo: Repository;
  driver: "d1" | "libsql";
  /** Why the configured database cannot be used (a bad LIBSQL_URL), or null. */
  databaseProblem: string | null;
  /** The company's notifications (COMPANY_EMAIL). */
  transport: MailTransport;
  /**
   * What visitors receive: sign-in codes, confirmations, welcomes, campaigns. Cloudflare Email
   * Service when EMAIL_FROM is set and the EMAIL binding exists (it sets a campaign's headers);
   * otherwise the same as `transport`.
   */
  visitorTransport: MailTransport;
  /** The queues the worker produces to (wrangler.toml [[queues.producers]]). */
  queues: {
    /** Launch day's campaign engine (CAMPAIGN_QUEUE; worker/features/campaigns/messages.ts). */
    campaigns: CampaignQueue;
    /** The e-mails a join or a form causes, sent after the answer (MAIL_QUEUE; worker/features/mail-queue). */
    mail: MailQueue;
    /** Joins the database could not take, waiting to be stored (JOIN_QUEUE; worker/features/joins). */
    joins: JoinQueue;
    /** "Send the webhooks that are due" (WEBHOOK_QUEUE; worker/features/webhooks). */
    webhooks: WebhookQueue;
  };
  /** How many joins wait on the joins queue and since when, and the dead ones (JOIN_BACKLOG; worker/features/joins/backlog.ts). */
  joinBacklog: Backlog;
  now: () => Date;
};

/** Email Service for visitors once EMAIL_FROM names the onboarded sender, else the company's transport. */
function selectVisitorTransport(env: Env, config: AppConfig, transport: MailTransport): MailTransport {
  // Typed as always there (wrangler.toml declares it), but a deploy without it must not break sign-in.
  const binding = (env as Partial<Env>).EMAIL;
  return config.campaigns.emailFrom && binding ? emailServiceTransport(binding, config.campaigns.emailFrom) : transport;
}

export function createDeps(env: Env, now: () => Date = () => new Date()): Deps {
  const config = readConfig(env);
  const opened = openDatabase(env);
  const repo = opened.db ? createRepository(opened.db) : null;
  const transport = selectTransport(config);
  return {
    config,
    get repo(): Repository {
      if (!repo) throw new Error(`The database cannot be used: ${opened.problem}.`);
      return repo;
    },
    driver: opened.driver,
    databaseProblem: opened.problem,
    transport,
    visitorTransport: selectVisitorTransport(env, config, transport),
    queues: {
      campaigns: campaignQueue(env.CAMPAIGN_QUEUE),
      mail: mailQueue(env.MAIL_QUEUE),
      joins: joinQueue(env.JOIN_QUEUE),
      webhooks: webhookQueue(env.WEBHOOK_QUEUE),
    },
    joinBacklog: backlog(env.JOIN_BACKLOG),
    now,
  };
}

/** The worker's Hono env: the platform's (worker/platform/http/env.ts) with the whole Deps and every binding. */
export type AppEnv = PlatformEnv<Deps> & { Bindings: Env };

/** Builds the dependencies once per request. */
export const withDeps: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("deps", createDeps(c.env));
  await next();
};

import type { Actor } from '../auth/actor.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';

/**
 * What the commands work with. A command runs in one transaction and mails
 * inside it, so that a failed delivery undoes what the mail announces.
 */
export interface CommandContext {
  database: Database;
  mailer: Mailer;
  config: Config;
}

/** Who asks, and from where: the audit trail records both, a new session keeps them. */
export interface Requester {
  actor: Actor;
  ip: string;
  userAgent?: string;
}

import type { Actor } from '../auth/actor.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { Mailer, MailLanguage } from '../mail/mailer.ts';

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
  /**
   * The language the request asks for, of those mails are written in. Users
   * store none, so the mails a command sends are in it: one's own for a reset
   * link, the inviting or approving administrator's for an invitation or a decision.
   */
  language?: MailLanguage;
}

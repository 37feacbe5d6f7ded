import enMail from '@data-platform/shared/i18n/locales/en/mail.json' with { type: 'json' };
import frMail from '@data-platform/shared/i18n/locales/fr/mail.json' with { type: 'json' };
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import i18next, { type i18n } from 'i18next';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';

export type MailTemplate = 'invitation' | 'passwordReset' | 'accessApproved' | 'accessRejected';
export const mailLanguages = ['en', 'fr'] as const;
export type MailLanguage = (typeof mailLanguages)[number];

export interface MailMessage {
  to: string;
  template: MailTemplate;
  /** Dates are written in the mail's language; a built-in role's name (`role`) is translated. */
  values: Record<string, string | number | Date>;
  /**
   * The mail's language: users store none, so the commands pass the one the
   * request that sends the mail asks for (the requester's, from its
   * Accept-Language); English when it names none we write in.
   */
  language: MailLanguage | undefined;
}

export interface Mailer {
  /**
   * Renders a template in the recipient's language and delivers it. Inside a
   * transaction pass it, so that a failed delivery undoes what the mail announces.
   */
  send(message: MailMessage, executor?: Executor): Promise<void>;
  close(): void;
}

async function createTranslator(): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: [...mailLanguages],
    ns: ['mail'],
    defaultNS: 'mail',
    resources: { en: { mail: enMail }, fr: { mail: frMail } },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}

/**
 * Sends through SMTP when SMTP_URL is set, and keeps nothing: a mail's links
 * then reach only the recipient's mailbox. Without it, mails are kept in the
 * outbox table, so that a fresh install works with nothing else running; the
 * outbox shows each only to administrators who hold every permission of its
 * recipient (see `privateTo`). The log names the mail but never holds its
 * text: invitation and reset links would be readable by whoever reads logs.
 */
export async function createMailer(config: Config, database: Database, log: FastifyBaseLogger): Promise<Mailer> {
  const translator = await createTranslator();
  const transport: Transporter | undefined = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : undefined;
  return {
    async send({ to, template, values, language }, executor) {
      const chosen = language ?? 'en';
      const t = translator.getFixedT(chosen);
      const dates = new Intl.DateTimeFormat(chosen, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
      const shown = Object.fromEntries(
        Object.entries(values).map(([name, value]) => [
          name,
          value instanceof Date
            ? `${dates.format(value)} UTC`
            : name === 'role'
              ? t(`roles.${value}`, { defaultValue: String(value) })
              : value,
        ]),
      );
      const subject = t(`${template}.subject`, shown);
      const text = `${t(`${template}.text`, shown)}\n\n${t('signature')}\n`;
      if (transport) {
        await transport.sendMail({ from: config.mailFrom, to, subject, text });
        log.info({ to, subject }, 'mail sent');
        return;
      }
      await database.rows(sql`insert into outbox ("to", subject, text) values (${to}, ${subject}, ${text})`, executor);
      log.info({ to, subject }, 'mail kept in the outbox (no SMTP_URL)');
    },
    close() {
      transport?.close();
    },
  };
}

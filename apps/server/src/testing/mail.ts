import { SMTPServer } from 'smtp-server';
import type { ApiClient } from './factories.ts';

/** A mail as a test reads it: the envelope recipient, subject and plain text. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Where tests pick up the mails the server sent, however it delivered them. */
export interface Mailbox {
  /** The oldest mail to `to` not taken yet, waiting for it up to `timeoutMs`. */
  next(to: string, timeoutMs?: number): Promise<Mail>;
  /** True when a mail to `to` is waiting untaken (use after waiting for a later mail). */
  hasMail(to: string): Promise<boolean>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Decodes `=?UTF-8?Q?...?=` and `=?UTF-8?B?...?=` words of a header value. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, charset: string, encoding: string, data: string) => {
      const bytes =
        encoding.toUpperCase() === 'B'
          ? Buffer.from(data, 'base64')
          : Buffer.from(
              data
                .replace(/_/g, ' ')
                .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            );
      return new TextDecoder(charset).decode(bytes);
    });
}

/** Decodes a quoted-printable body: soft line breaks go, `=XX` are bytes of the charset. */
function decodeQuotedPrintable(body: string, charset: string): string {
  const latin1 = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return new TextDecoder(charset).decode(Buffer.from(latin1, 'latin1'));
}

/**
 * The headers and plain text of a single-part RFC 822 message, as nodemailer
 * writes a text-only mail (7bit, quoted-printable or base64).
 */
export function parseMail(raw: string): { headers: Map<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeHeader(line.slice(colon + 1).trim()));
  }
  const contentType = headers.get('content-type') ?? 'text/plain';
  if (!contentType.startsWith('text/plain')) throw new Error(`Expected a text/plain mail, got ${contentType}`);
  const charset = /charset="?([^";]+)"?/i.exec(contentType)?.[1] ?? 'utf-8';
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body, charset)
      : encoding === 'base64'
        ? new TextDecoder(charset).decode(Buffer.from(body, 'base64'))
        : body;
  return { headers, text: text.replace(/\r\n/g, '\n') };
}

/** The token of the link to `page` (e.g. `https://app.example/register`) in a mail; fails when there is none. */
export function tokenOfLink(mail: Mail, page: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((candidate) => candidate.startsWith(`${page}?`));
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error(`No link to ${page} in the mail "${mail.subject}":\n${mail.text}`);
  return token;
}

/** Mails grouped by recipient, taken oldest first. */
class Queues {
  private readonly waiting = new Map<string, Mail[]>();

  add(mail: Mail) {
    const key = mail.to.toLowerCase();
    this.waiting.set(key, [...(this.waiting.get(key) ?? []), mail]);
  }

  take(to: string): Mail | undefined {
    return this.waiting.get(to.toLowerCase())?.shift();
  }

  has(to: string): boolean {
    return (this.waiting.get(to.toLowerCase())?.length ?? 0) > 0;
  }
}

async function poll(take: () => Promise<Mail | undefined>, to: string, timeoutMs: number): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = await take();
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

export interface MailCatcher extends Mailbox {
  /** For SMTP_URL. */
  url: string;
  /** Answers RCPT TO for this address with a permanent failure, as a mail server that is down for it would. */
  refuse(address: string): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a random loopback port that keeps every mail it
 * receives. No AUTH and no STARTTLS, so nodemailer talks plain SMTP to it.
 */
export async function startMailCatcher(): Promise<MailCatcher> {
  const queues = new Queues();
  const refused = new Set<string>();
  const smtp = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { headers, text } = parseMail(Buffer.concat(chunks).toString('latin1'));
        for (const recipient of session.envelope.rcptTo) {
          queues.add({ to: recipient.address, subject: headers.get('subject') ?? '', text });
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const address = smtp.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    next: (to, timeoutMs = 5000) => poll(async () => queues.take(to), to, timeoutMs),
    hasMail: async (to) => queues.has(to),
    refuse: (to) => refused.add(to.toLowerCase()),
    close: () => new Promise((resolve) => smtp.close(() => resolve())),
  };
}

interface OutboxRow {
  id: number;
  to: string;
  subject: string;
  text: string;
}

/** The mails kept in the outbox (no SMTP_URL), read by an administrator over the API. */
export function outboxMailbox(admin: ApiClient): Mailbox {
  const taken = new Set<number>();
  const untaken = async (to: string) => {
    const answer = await admin.list<OutboxRow>('/api/v1/outbox', {
      'filter[to]': to.toLowerCase(),
      sort: 'createdAt',
      pageSize: 100,
    });
    if (answer.status !== 200) throw new Error(`The outbox answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body.data.filter((row) => !taken.has(row.id));
  };
  return {
    next: (to, timeoutMs = 5000) =>
      poll(
        async () => {
          const [row] = await untaken(to);
          if (!row) return undefined;
          taken.add(row.id);
          return { to: row.to, subject: row.subject, text: row.text };
        },
        to,
        timeoutMs,
      ),
    hasMail: async (to) => (await untaken(to)).length > 0,
  };
}

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const envSchema = z.object({
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url().optional(),
  DATABASE_READ_URL: z.url().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_REQUESTS: z.stringbool().optional(),
  LOG_FORMAT: z.enum(['text', 'json']).default('text'),
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  WEB_DIR: z.string().min(1).optional(),
  PUBLIC_URL: z.url().optional(),
  SMTP_URL: z.url().optional(),
  MAIL_FROM: z.string().min(3).default('Data Platform <no-reply@localhost>'),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(12).max(256).optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().positive().default(12),
  INVITATION_DAYS: z.coerce.number().int().positive().default(7),
  PASSWORD_RESET_MINUTES: z.coerce.number().int().positive().default(60),
  SEED_DEMO: z.stringbool().default(true),
  DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).default(30),
});

/** The web app's build, beside this package in the workspace. */
const defaultWebDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface Config {
  dataDir: string;
  databaseUrl?: string;
  /** A read replica of DATABASE_URL's database, for lists, totals, aggregates and exports (decision 0048). */
  databaseReadUrl?: string;
  port: number;
  host: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** A log line for each request (LOG_REQUESTS; by default at LOG_LEVEL debug and trace only). */
  logRequests: boolean;
  /** `text`: one short line per event for people; `json`: pino's JSON lines for log collectors. */
  logFormat: 'text' | 'json';
  /** The largest file upload accepted (413 above). */
  maxUploadBytes: number;
  /** The largest JSON body accepted (413 above). */
  maxBodyBytes: number;
  /** Where the built web app is; served when it exists. */
  webDir: string;
  /** The address users reach the app at, for links in mails. */
  publicUrl: string;
  smtpUrl?: string;
  mailFrom: string;
  /** The first administrator, created on the first start of an empty database. */
  adminEmail?: string;
  adminPassword?: string;
  sessionIdleMs: number;
  sessionMaxMs: number;
  invitationTtlMs: number;
  passwordResetTtlMs: number;
  /** Load the demo dataset on the first start of an empty database. */
  seedDemo: boolean;
  /** PostgreSQL: how long a start waits for a database that cannot be reached yet. */
  databaseWaitMs: number;
}

/** Reads the configuration from the environment; a bad value stops the start with its name. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Bad configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new Error('Bad configuration: DATABASE_READ_URL: a read replica needs DATABASE_URL, its primary');
  }
  return {
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: e.DATABASE_READ_URL,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    logRequests: e.LOG_REQUESTS ?? (e.LOG_LEVEL === 'debug' || e.LOG_LEVEL === 'trace'),
    logFormat: e.LOG_FORMAT,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    maxBodyBytes: 1024 * 1024,
    webDir: path.resolve(e.WEB_DIR ?? defaultWebDir),
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: e.SESSION_MAX_HOURS * 3_600_000,
    invitationTtlMs: e.INVITATION_DAYS * 86_400_000,
    passwordResetTtlMs: e.PASSWORD_RESET_MINUTES * 60_000,
    seedDemo: e.SEED_DEMO,
    databaseWaitMs: e.DATABASE_WAIT_SECONDS * 1000,
  };
}

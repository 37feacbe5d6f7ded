import pg from 'pg';
import { CONNECTION_OPTIONS } from './connection-options.ts';

/**
 * Change notifications (LISTEN/NOTIFY) for the in-memory caches. The
 * migrations' triggers notify when a row a cache copies changes; PostgreSQL
 * delivers the notification when the writing transaction commits, to every
 * connection listening on the channel, whichever process wrote.
 */

/** Told of one channel's notifications and of whether they can be heard at all. */
export interface Subscriber {
  onMessage(payload: string): void;
  /**
   * `true` once notifications are heard (first, and again after each
   * reconnection), `false` when they no longer are: notifications sent in
   * between are lost, so a cache must not trust what it holds from before.
   */
  onState(listening: boolean): void;
}

export interface ListenerLog {
  warn(message: string): void;
}

export interface ListenerOptions {
  /** From the first failed attempt, doubling up to `maxDelayMs`. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /**
   * How often the connection is asked a `select 1`: a connection that stopped
   * answering (a host gone without a reset) is given up and opened again,
   * rather than leaving caches trusting a listener that hears nothing.
   */
  heartbeatMs?: number;
}

/** The listening connection's application_name (pg_stat_activity). */
export const LISTENER_APPLICATION_NAME = 'data-platform notifications';

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * One connection of its own (not from the pool: a pooled connection is
 * shared, and LISTEN belongs to the connection) that listens on every
 * channel asked for. When it is lost (pg_terminate_backend, a restart, a
 * network failure, a heartbeat unanswered), the subscribers are told
 * `false` at once, and it connects again with a growing delay until the
 * database answers, then tells them `true`.
 */
export class PostgresListener {
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private client: pg.Client | undefined;
  /** Channels LISTENed on the current connection. */
  private readonly heard = new Set<string>();
  private connecting = false;
  private closed = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private readonly minDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly heartbeatMs: number;
  /** The round trip on its way, shared by the calls made before it was sent. */
  private roundTrip: Promise<void> | undefined;
  /** The round trip to send once `roundTrip` is back, shared by the calls made meanwhile. */
  private nextRoundTrip: Promise<void> | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly log: ListenerLog,
    options: ListenerOptions = {},
  ) {
    this.minDelayMs = options.minDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 5_000;
    this.heartbeatMs = options.heartbeatMs ?? 10_000;
  }

  /** Starts hearing `channel` for `subscriber`; returns the function that stops. */
  subscribe(channel: string, subscriber: Subscriber): () => void {
    let set = this.subscribers.get(channel);
    if (!set) {
      set = new Set();
      this.subscribers.set(channel, set);
    }
    set.add(subscriber);
    if (this.client && !this.connecting) void this.listenOn(this.client, channel, [subscriber]);
    else this.connect();
    return () => {
      set.delete(subscriber);
    };
  }

  /** LISTENs on `channel` on `client` (once), then tells `subscribers` (by default all of the channel's). */
  private async listenOn(
    client: pg.Client,
    channel: string,
    subscribers: Iterable<Subscriber> = this.subscribers.get(channel) ?? [],
  ): Promise<void> {
    try {
      if (!this.heard.has(channel)) {
        await client.query(`LISTEN ${quoteIdent(channel)}`);
        this.heard.add(channel);
      }
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.client !== client) return;
    for (const subscriber of subscribers) subscriber.onState(true);
  }

  private connect(): void {
    if (this.closed || this.client || this.connecting || this.retryTimer) return;
    this.connecting = true;
    const client = new pg.Client({
      connectionString: this.connectionString,
      // Told apart in pg_stat_activity from the pool's connections.
      application_name: LISTENER_APPLICATION_NAME,
      options: CONNECTION_OPTIONS,
      connectionTimeoutMillis: 10_000,
      // A heartbeat that gets no answer within this fails, and the connection is given up.
      query_timeout: 10_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    client.on('notification', ({ channel, payload }) => {
      if (this.client !== client) return;
      for (const subscriber of this.subscribers.get(channel) ?? []) subscriber.onMessage(payload ?? '');
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    this.client = client;
    this.heard.clear();
    client
      .connect()
      .then(async () => {
        for (const channel of this.subscribers.keys()) {
          await client.query(`LISTEN ${quoteIdent(channel)}`);
          this.heard.add(channel);
        }
        if (this.client !== client) return;
        this.connecting = false;
        if (this.attempt > 0) this.log.warn('Change notifications are heard again; the caches start afresh');
        this.attempt = 0;
        this.startHeartbeat(client);
        for (const [channel, set] of this.subscribers) {
          if (!this.heard.has(channel)) void this.listenOn(client, channel);
          else for (const subscriber of set) subscriber.onState(true);
        }
      })
      .catch((error: unknown) => this.lost(client, error));
  }

  private startHeartbeat(client: pg.Client): void {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = setInterval(() => {
      if (this.client !== client) return;
      client.query('select 1').catch((error: unknown) => this.lost(client, error));
    }, this.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  /** The connection `client` is gone or unusable: tell everyone, drop it, try again later. */
  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.connecting = false;
    this.heard.clear();
    clearInterval(this.heartbeatTimer);
    client.removeAllListeners('notification');
    // Errors after this one (the end of a broken connection) are not news.
    client.on('error', () => {});
    client.end().catch(() => {});
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber.onState(false);
    if (this.closed) return;
    const delay = Math.min(this.minDelayMs * 2 ** this.attempt, this.maxDelayMs);
    this.attempt++;
    const { code, message } = error as { code?: unknown; message?: unknown };
    const reason = [code, message].filter((part) => typeof part === 'string' && part).join(' ') || String(error);
    this.log.warn(
      `Change notifications are not heard (${reason}); the caches are off until they are, trying again in ${delay} ms`,
    );
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.subscribers.size > 0) this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  /**
   * Resolves once every notification committed before the call has been
   * delivered: a round trip (an empty statement) on the listening connection, whose server sends
   * the pending notifications before it answers (or at once when not
   * listening: then no cache holds anything). Calls share round trips: a
   * call joins the next one not yet sent (a round trip already on its way
   * may have been sent before the change the caller must see committed), so
   * however many requests ask at once, at most two are in flight.
   */
  caughtUp(): Promise<void> {
    const client = this.client;
    if (!client || this.connecting) return Promise.resolve();
    if (this.nextRoundTrip) return this.nextRoundTrip;
    const current = this.roundTrip;
    if (!current) return this.sendRoundTrip(client);
    const next = current.then(() => {
      this.nextRoundTrip = undefined;
      return this.client === client && !this.connecting ? this.sendRoundTrip(client) : undefined;
    });
    this.nextRoundTrip = next;
    return next;
  }

  private sendRoundTrip(client: pg.Client): Promise<void> {
    // An empty statement: nothing to parse, plan or run, and still answered after the pending notifications
    // (PostgreSQL sends them before every ReadyForQuery outside a transaction).
    const sent: Promise<void> = client
      .query('')
      .then(
        () => {},
        (error: unknown) => this.lost(client, error),
      )
      .finally(() => {
        if (this.roundTrip === sent) this.roundTrip = undefined;
      });
    this.roundTrip = sent;
    return sent;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeatTimer);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}

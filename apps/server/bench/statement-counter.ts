import { createHash } from 'node:crypto';
import net from 'node:net';

/** What the server sent PostgreSQL through the relay since the last reset. */
export interface StatementCounts {
  /** Statements run: simple-protocol queries ('Q') plus extended-protocol executions ('E'). */
  statements: number;
  /** Waits for an answer: each 'Q', and each 'S' (Sync) closing an extended-protocol exchange. */
  roundTrips: number;
  /**
   * Empty simple queries (''): round trips that run, parse and plan nothing. The server sends them on its listening
   * connection to have heard every notification committed before a request (decision 0038); not in `statements`.
   */
  emptyRoundTrips: number;
  /** Statements parsed ('P'), hence planned; a named statement reused is not parsed again. */
  parses: number;
  /** Each statement's text, its select lists abbreviated (see `abbreviate`), with how many times it ran. */
  texts: Map<string, number>;
  /** SHA-1 of each statement's whole text as sent, to tell whether a given statement was among them. */
  digests: Set<string>;
}

/** The digest `StatementCounts.digests` holds for a statement's text. */
export function textDigest(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export interface StatementCounter {
  /** Where to point the server: PostgreSQL's address with this relay's port. */
  url: string;
  counts(): StatementCounts;
  reset(): void;
  close(): Promise<void>;
}

/** SSLRequest, GSSENCRequest and CancelRequest carry these codes where a StartupMessage has its version. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const TEXT_LIMIT = 400;

function cString(buffer: Buffer, start: number): [string, number] {
  const end = buffer.indexOf(0, start);
  const stop = end < 0 ? buffer.length : end;
  return [buffer.toString('utf8', start, stop), stop + 1];
}

/** Calls whose arguments are a row's many fields: the same in every statement, so they say nothing. */
const ABBREVIATED_CALLS = ['jsonb_build_object(', 'jsonb_build_array(', 'jsonb_strip_nulls('];

/**
 * A statement's text on one line, the arguments of its row-building calls
 * replaced by `…`, so that what tells statements apart (from, where, order)
 * fits in a line: `select (jsonb_build_object(…))::text as row … from "companies" …`.
 */
export function abbreviate(text: string): string {
  let flat = text.replace(/\s+/g, ' ').trim();
  for (const call of ABBREVIATED_CALLS) {
    let at = flat.indexOf(call);
    while (at >= 0) {
      const open = at + call.length;
      let depth = 1;
      let close = open;
      while (close < flat.length && depth > 0) {
        if (flat[close] === '(') depth++;
        else if (flat[close] === ')') depth--;
        close++;
      }
      flat = `${flat.slice(0, open)}…${flat.slice(close - 1)}`;
      at = flat.indexOf(call, open + 1);
    }
  }
  return flat.length > TEXT_LIMIT ? `${flat.slice(0, TEXT_LIMIT)}…` : flat;
}

/**
 * Reads the frontend side of one connection (client to server) as PostgreSQL's
 * protocol frames it: untyped startup messages first, then a type byte and a
 * length per message. Tracks which statement each portal runs, so that an
 * Execute is counted under its statement's text.
 */
function frontendParser(counts: () => StatementCounts) {
  let pending: Buffer = Buffer.alloc(0);
  let startup = true;
  const statementText = new Map<string, string>();
  const portalStatement = new Map<string, string>();
  const statementDigest = new Map<string, string>();
  const ran = (text: string, digest: string) => {
    const c = counts();
    c.texts.set(text, (c.texts.get(text) ?? 0) + 1);
    c.digests.add(digest);
  };
  const message = (type: number, body: Buffer) => {
    const c = counts();
    switch (String.fromCharCode(type)) {
      case 'Q': {
        c.roundTrips++;
        const text = cString(body, 0)[0];
        if (text.trim() === '') {
          c.emptyRoundTrips++;
          break;
        }
        c.statements++;
        c.parses++;
        ran(abbreviate(text), textDigest(text));
        break;
      }
      case 'P': {
        c.parses++;
        const [name, next] = cString(body, 0);
        const text = cString(body, next)[0];
        statementText.set(name, abbreviate(text));
        statementDigest.set(name, textDigest(text));
        break;
      }
      case 'B': {
        const [portal, next] = cString(body, 0);
        portalStatement.set(portal, cString(body, next)[0]);
        break;
      }
      case 'E': {
        c.statements++;
        const statement = portalStatement.get(cString(body, 0)[0]) ?? '';
        ran(statementText.get(statement) ?? '(unknown statement)', statementDigest.get(statement) ?? '');
        break;
      }
      case 'S':
        c.roundTrips++;
        break;
    }
  };
  return (chunk: Buffer) => {
    pending = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    for (;;) {
      if (startup) {
        if (pending.length < 8) return;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return;
        const code = pending.readInt32BE(4);
        // After an SSL or GSS request (refused: the bench does not use TLS) the StartupMessage follows, untyped too.
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) startup = false;
        pending = pending.subarray(length);
        continue;
      }
      if (pending.length < 5) return;
      const length = pending.readInt32BE(1);
      if (pending.length < 1 + length) return;
      message(pending[0] as number, pending.subarray(5, 1 + length));
      pending = pending.subarray(1 + length);
    }
  };
}

function emptyCounts(): StatementCounts {
  return { statements: 0, roundTrips: 0, emptyRoundTrips: 0, parses: 0, texts: new Map(), digests: new Set() };
}

/**
 * A TCP relay in front of PostgreSQL that counts what its clients send,
 * exactly, from outside the server: the server is pointed at `url` for a
 * counting pass and at PostgreSQL itself for timed runs, which the relay's
 * extra hop would slow.
 */
export async function startStatementCounter(databaseUrl: string): Promise<StatementCounter> {
  const upstreamUrl = new URL(databaseUrl);
  const host = upstreamUrl.hostname || '127.0.0.1';
  const port = Number(upstreamUrl.port || 5432);
  let counts = emptyCounts();
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(port, host);
    const feed = frontendParser(() => counts);
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => {
      feed(chunk);
      upstream.write(chunk);
    });
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  });
  await new Promise<void>((resolve, reject) => {
    relay.once('error', reject);
    relay.listen(0, '127.0.0.1', resolve);
  });
  const relayUrl = new URL(databaseUrl);
  relayUrl.hostname = '127.0.0.1';
  relayUrl.port = String((relay.address() as net.AddressInfo).port);
  return {
    url: relayUrl.toString(),
    counts: () => counts,
    reset: () => {
      counts = emptyCounts();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}

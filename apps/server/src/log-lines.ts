import { Writable } from 'node:stream';

const levels: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

interface LogRecord {
  level?: number;
  time?: number;
  msg?: string;
  err?: { message?: string; stack?: string };
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/** One pino JSON record as a short line for people: time, level, message, and what it is about. */
export function humanLine(json: string): string {
  let record: LogRecord;
  try {
    record = JSON.parse(json) as LogRecord;
  } catch {
    return json;
  }
  const time = new Date(record.time ?? Date.now()).toTimeString().slice(0, 8);
  const parts = [time, levels[record.level ?? 30] ?? 'INFO', record.msg ?? ''];
  if (record.req?.method) parts.push(`${record.req.method} ${record.req.url ?? ''}`);
  if (record.res?.statusCode) parts.push(`→ ${record.res.statusCode}`);
  if (typeof record.responseTime === 'number') parts.push(`${Math.round(record.responseTime)} ms`);
  let line = parts.filter(Boolean).join(' ');
  if (record.err) line += `\n${record.err.stack ?? record.err.message ?? ''}`;
  return line;
}

/** A stream for pino that writes each record as a human line to `out` (LOG_FORMAT=text). */
export function humanLogStream(out: NodeJS.WritableStream): Writable {
  let pending = '';
  return new Writable({
    write(chunk, _encoding, done) {
      pending += String(chunk);
      let end = pending.indexOf('\n');
      while (end >= 0) {
        const json = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (json.trim()) out.write(`${humanLine(json)}\n`);
        end = pending.indexOf('\n');
      }
      done();
    },
  });
}

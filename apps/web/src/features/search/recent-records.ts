/** A record the user opened from the search palette, as it was named then. */
export interface RecentRecord {
  type: string;
  id: number;
  name: string;
}

/** How many records the palette offers when nothing is typed. */
export const RECENT_SHOWN = 8;

const storageKey = (userId: number) => `dp-recent-records:${userId}`;

function isRecent(value: unknown): value is RecentRecord {
  if (!value || typeof value !== 'object') return false;
  const { type, id, name } = value as Record<string, unknown>;
  return typeof type === 'string' && typeof id === 'number' && typeof name === 'string';
}

/** The user's recently opened records, newest first (kept in this browser, per user). */
export function recentRecords(userId: number): RecentRecord[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(storageKey(userId)) ?? '[]');
    return Array.isArray(stored) ? stored.filter(isRecent).slice(0, RECENT_SHOWN) : [];
  } catch {
    // Storage refused (private mode) or held something else: nothing recent.
    return [];
  }
}

/** Puts the record first among the user's recent ones. */
export function rememberRecord(userId: number, record: RecentRecord): void {
  const others = recentRecords(userId).filter((r) => r.type !== record.type || r.id !== record.id);
  try {
    localStorage.setItem(storageKey(userId), JSON.stringify([record, ...others].slice(0, RECENT_SHOWN)));
  } catch {
    // Storage full or refused: the record is still opened, only not remembered.
  }
}

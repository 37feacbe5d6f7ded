import type { HistoryEntry } from '@data-platform/shared/history';
import { BOARD_FIELD } from './pipeline-field.ts';

/** One change of a deal's stage: when, by whom, from and to (null: no stage). */
export interface StageChange {
  at: string;
  by: string | null;
  from: string | null;
  to: string | null;
}

const stageText = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The stage changes among a deal's history entries (newest first, as the
 * history answers them): its own creates, updates and restores that set the
 * stage, not its notes', files' or links' entries.
 */
export function stageChanges(entries: readonly HistoryEntry[]): StageChange[] {
  return entries.flatMap((entry) => {
    if (entry.subject !== null || entry.action === 'deleted') return [];
    const change = entry.changes.find((c) => c.field === BOARD_FIELD);
    if (!change) return [];
    const from = stageText(change.old);
    const to = stageText(change.new);
    return from === to ? [] : [{ at: entry.createdAt, by: entry.actor?.fullName ?? null, from, to }];
  });
}

/**
 * Since when the deal is in its current stage: the newest change to it, when
 * the history read holds one (else unknown: the entry is older than what was read).
 */
export function inStageSince(changes: readonly StageChange[], current: unknown): string | null {
  const newest = changes[0];
  return newest && newest.to === stageText(current) ? newest.at : null;
}

/** A duration in whole days, hours under a day, minutes under an hour, as `Intl` names the unit in a language. */
export function durationSince(since: string, now: number, language: string): string {
  const minutes = Math.max(0, Math.floor((now - new Date(since).getTime()) / 60_000));
  const [value, unit] =
    minutes < 60
      ? [minutes, 'minute']
      : minutes < 24 * 60
        ? [Math.floor(minutes / 60), 'hour']
        : [Math.floor(minutes / (24 * 60)), 'day'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

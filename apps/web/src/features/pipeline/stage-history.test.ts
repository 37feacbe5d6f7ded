import type { HistoryEntry } from '@data-platform/shared/history';
import { describe, expect, it } from 'vitest';
import { durationSince, inStageSince, stageChanges } from './stage-history.ts';

const entry = (id: number, createdAt: string, changes: HistoryEntry['changes'], extra: Partial<HistoryEntry> = {}) =>
  ({
    id,
    createdAt,
    action: 'updated',
    actor: { id: 1, fullName: 'Ada Admin' },
    subject: null,
    linked: null,
    changes,
    restorable: false,
    ...extra,
  }) satisfies HistoryEntry;

describe("a deal's stage history", () => {
  // Newest first, as GET /deals/{id}/history answers.
  const entries: HistoryEntry[] = [
    entry(6, '2026-11-20T10:00:00Z', [{ field: 'amount', old: null, new: { amount: 5, currency: 'EUR' } }]),
    entry(5, '2026-11-10T09:00:00Z', [{ field: 'stage', old: 'Sourced', new: 'Due diligence' }]),
    entry(4, '2026-11-09T09:00:00Z', [{ field: 'stage', old: 'Note', new: 'Other' }], {
      subject: { entity: 'notes', id: 3 },
    }),
    entry(2, '2026-11-01T08:00:00Z', [{ field: 'stage', old: null, new: 'Sourced' }], {
      action: 'created',
      actor: null,
    }),
  ];

  it('keeps the changes of its stage only, newest first, a create into a stage included', () => {
    expect(stageChanges(entries)).toEqual([
      { at: '2026-11-10T09:00:00Z', by: 'Ada Admin', from: 'Sourced', to: 'Due diligence' },
      { at: '2026-11-01T08:00:00Z', by: null, from: null, to: 'Sourced' },
    ]);
  });

  it('knows since when it is in its stage only from the change into it', () => {
    const changes = stageChanges(entries);
    expect(inStageSince(changes, 'Due diligence')).toBe('2026-11-10T09:00:00Z');
    // Changed since by a write the pages read do not hold yet: unknown, not a wrong date.
    expect(inStageSince(changes, 'Closing')).toBeNull();
    expect(inStageSince([], 'Sourced')).toBeNull();
  });

  it('says the time in whole days, hours under a day, minutes under an hour, in the language', () => {
    const now = new Date('2026-11-27T12:00:00Z').getTime();
    expect(durationSince('2026-11-10T09:00:00Z', now, 'en')).toBe('17 days');
    expect(durationSince('2026-11-27T07:30:00Z', now, 'en')).toBe('4 hours');
    expect(durationSince('2026-11-26T11:00:00Z', now, 'fr')).toBe('1\u00a0jour');
    expect(durationSince('2026-11-27T11:58:30Z', now, 'en')).toBe('1 minute');
    expect(durationSince('2026-11-27T12:00:00Z', now, 'en')).toBe('0 minutes');
  });
});

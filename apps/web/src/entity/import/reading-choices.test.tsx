// @vitest-environment jsdom
import type { ColumnFormat } from '@data-platform/shared/fields/cell-formats';
import transfer from '@data-platform/shared/i18n/locales/en/transfer.json' with { type: 'json' };
import type { ImportPreview } from '@data-platform/shared/imports';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { jsdomRender } from '../../testing/jsdom-render.tsx';
import { firstChoices, type WizardChoices } from './import-wizard.tsx';
import { ReadingChoice } from './reading-choices.tsx';

const { render } = jsdomRender({ en: { transfer } });

const dates = (from: ColumnFormat['dateOrderFrom']): ColumnFormat => ({
  dateOrder: from ? 'mdy' : null,
  dateOrderFrom: from,
  decimalMark: null,
  decimalMarkFrom: null,
});

/** A funds file's preview: its date columns written as `from` says, month first suggested. */
function previewOf(...froms: ColumnFormat['dateOrderFrom'][]): ImportPreview {
  const headings = ['Name', ...froms.map((_, i) => ['First close', 'Final close', 'Closed'][i] as string)];
  return {
    headings,
    columns: headings.map((heading, index) => ({
      index,
      heading,
      target: { field: index === 0 ? 'name' : `date${index}` },
      suggestedBy: null,
      format: index === 0 ? null : dates(froms[index - 1] ?? null),
    })),
    dateOrder: 'mdy',
    dateOrderNeeded: froms.includes('choice'),
    decimalMark: '.',
    decimalMarkNeeded: false,
  } as ImportPreview;
}

const choicesOf = (preview: ImportPreview): WizardChoices => ({
  ...firstChoices,
  mapping: preview.columns.map((column) => column.target),
});

describe('the choice of how dates are read', () => {
  let container: HTMLDivElement;

  function show(preview: ImportPreview, choices: WizardChoices, onChange = vi.fn()) {
    container = render(<ReadingChoice reading="dateOrder" preview={preview} choices={choices} onChange={onChange} />);
    return onChange;
  }
  const groups = () => [...container.querySelectorAll('[role="radiogroup"]')];
  const labelOf = (group: Element) =>
    document.getElementById(group.getAttribute('aria-labelledby') ?? '')?.textContent ?? '';
  const radio = (group: Element, name: string) =>
    [...group.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find(
      (input) => document.querySelector(`label[for="${input.id}"]`)?.textContent === name,
    ) as HTMLInputElement;

  it('is not asked when no column needs it', () => {
    show(previewOf('values', null), choicesOf(previewOf('values', null)));
    expect(container.querySelector('[data-testid="import-date-order"]')).toBeNull();
  });

  it("asks once, for the import, when one column needs it, and drops a choice of the column's own", () => {
    const preview = previewOf('choice', 'values');
    const choices = choicesOf(preview);
    choices.mapping[1] = { field: 'date1', dateOrder: 'dmy' };
    const onChange = show(preview, choices);
    expect(groups()).toHaveLength(1);
    const [group] = groups() as [Element];
    expect(container.querySelector('[data-testid="import-date-order"]')?.textContent).toContain(
      'Every date in “First close” could be read either way',
    );
    // The column's own choice is what it is read with, so it is what shows.
    expect(radio(group, 'Day first (31/12/2004)').checked).toBe(true);
    act(() => radio(group, 'Month first (12/31/2004)').click());
    expect(onChange).toHaveBeenCalledWith({
      dateOrder: 'mdy',
      mapping: [{ field: 'name' }, { field: 'date1' }, { field: 'date2' }],
    });
  });

  it("asks per column when several need it, each preselected with the import's, and sets the column's own", () => {
    const preview = previewOf('choice', 'values', 'choice');
    const choices = { ...choicesOf(preview), dateOrder: 'dmy' as const };
    const onChange = show(preview, choices);
    const asked = container.querySelector('[data-testid="import-date-order"]');
    expect(asked?.textContent).toContain('Every date in these columns could be read either way');
    expect(groups().map(labelOf)).toEqual(['Column “First close”', 'Column “Closed”']);
    for (const group of groups()) expect(radio(group, 'Day first (31/12/2004)').checked).toBe(true);
    act(() => radio(groups()[1] as Element, 'Month first (12/31/2004)').click());
    expect(onChange).toHaveBeenCalledWith({
      mapping: [{ field: 'name' }, { field: 'date1' }, { field: 'date2' }, { field: 'date3', dateOrder: 'mdy' }],
    });

    // Once chosen, a column shows its own; the others still the import's.
    choices.mapping[3] = { field: 'date3', dateOrder: 'mdy' };
    show(preview, { ...choices });
    expect(groups().map((group) => radio(group, 'Month first (12/31/2004)').checked)).toEqual([false, true]);
  });
});

// @vitest-environment jsdom
import transfer from '@data-platform/shared/i18n/locales/en/transfer.json' with { type: 'json' };
import type { ImportPreview } from '@data-platform/shared/imports';
import { describe, expect, it, vi } from 'vitest';
import { jsdomRender } from '../../testing/jsdom-render.tsx';
import { firstChoices } from './import-wizard.tsx';
import { MapStep } from './map-step.tsx';
import { withMatches, withSuggestions } from './wizard-logic.ts';

const { render } = jsdomRender({ en: { transfer } });

/** A companies file with a Stage column (a picklist) and a Tags column, "Fintech" and "AI" stored as tags. */
const preview = {
  headings: ['Stage', 'Tags'],
  columns: [
    { index: 0, heading: 'Stage', target: { field: 'stage' }, suggestedBy: 'label', format: null },
    { index: 1, heading: 'Tags', target: { field: 'tags' }, suggestedBy: 'label', format: null },
  ],
  fields: [
    { name: 'stage', label: 'Stage', type: 'select', required: false, custom: false, parts: [], options: ['Seed'] },
    { name: 'tags', label: 'Tags', type: 'tags', required: false, custom: false, parts: [] },
  ],
  picklists: [
    {
      field: 'stage',
      column: 0,
      options: ['Seed'],
      newValuesKept: false,
      more: false,
      values: [{ value: 'Series Z', rows: 1, option: null, matchedBy: null }],
    },
    {
      field: 'tags',
      column: 1,
      options: ['Fintech', 'AI'],
      newValuesKept: true,
      more: false,
      values: [
        { value: 'fintech', rows: 2, option: 'Fintech', matchedBy: 'normalized' },
        { value: 'Climate', rows: 1, option: null, matchedBy: null },
      ],
    },
  ],
} as unknown as ImportPreview;

describe('the map step', () => {
  it('offers the stored tags for each tag value, the suggestion preselected, and keeps the others as new tags', () => {
    const container = render(
      <MapStep
        resource="companies"
        preview={preview}
        suggested={preview.columns}
        matches={withMatches({}, preview.picklists)}
        choices={{
          ...firstChoices,
          mapping: preview.columns.map((c) => c.target),
          values: withSuggestions({}, preview.picklists),
        }}
        onMapping={vi.fn()}
        onValues={vi.fn()}
      />,
    );
    const select = (label: string) => container.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
    expect(select('Tags tag for “fintech”')?.value).toBe('Fintech');
    expect(select('Tags tag for “Climate”')?.value).toBe('Keep as a new tag');
    const tags = container.querySelector('[data-testid="import-values-tags"]');
    expect(tags?.textContent).toContain('Same but for case or spaces');
    // Nothing flags a new tag; a picklist value no option matches still is.
    expect(tags?.textContent).not.toContain('No option matches');
    expect(select('Stage option for “Series Z”')?.value).toBe('');
    expect(container.querySelector('[data-testid="import-values-stage"]')?.textContent).toContain(
      'No option matches: choose one',
    );
  });

  it('shows a column of record ids as going to ID (it showed an empty field)', () => {
    const ids = {
      ...preview,
      headings: ['Record ID', 'Name'],
      columns: [
        { index: 0, heading: 'Record ID', target: { field: 'id' }, suggestedBy: 'remembered', format: null },
        { index: 1, heading: 'Name', target: { field: 'name' }, suggestedBy: 'label', format: null },
      ],
      fields: [{ name: 'name', label: 'Name', type: 'text', required: true, custom: false, parts: [] }],
      picklists: [],
    } as unknown as ImportPreview;
    const container = render(
      <MapStep
        resource="companies"
        preview={ids}
        suggested={ids.columns}
        matches={{}}
        choices={{ ...firstChoices, mapping: ids.columns.map((c) => c.target) }}
        onMapping={vi.fn()}
        onValues={vi.fn()}
      />,
    );
    const select = (label: string) => container.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
    expect(select('Field for column “Record ID”')?.value).toBe('ID (of a stored record, to update it)');
    expect(select('Field for column “Name”')?.value).toBe('Name *');
  });
});

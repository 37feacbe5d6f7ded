import { dateOrders, decimalMarks } from '@data-platform/shared/fields/cell-formats';
import type { ImportPreview } from '@data-platform/shared/imports';
import { Fieldset, Group, Radio, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { WizardChoices } from './import-wizard.tsx';
import { columnsNeeding, type Reading, type ReadingValues, readingOf, withColumnReading } from './wizard-logic.ts';

/** What each reading asks: its test id, and its options in the interface's words. */
const readings: {
  [R in Reading]: {
    testId: string;
    options: (t: TFunction<'transfer'>) => { value: ReadingValues[R]; label: string }[];
  };
} = {
  dateOrder: {
    testId: 'import-date-order',
    options: (t) => dateOrders.map((order) => ({ value: order, label: t(`wizard.dateOrders.${order}`) })),
  },
  decimalMark: {
    testId: 'import-decimal-mark',
    // A point or a comma cannot be a translation key.
    options: (t) =>
      decimalMarks.map((mark) => ({
        value: mark,
        label: t(`wizard.decimalMarks.${mark === '.' ? 'point' : 'comma'}`),
      })),
  },
};

/** The headings as a hint names them. */
const quoted = (heading: string) => `“${heading}”`;

/**
 * How cells are read where a column's values leave it open (01/02/2005:
 * day or month first; 3,421: a decimal or a thousands separator). Shown only
 * when a column (or a value for every row) needs it. One column: one choice,
 * the import's, preselected as the server suggested from the interface's
 * language. Several: a choice per column, each preselected with the import's
 * and sent as the column's own in the mapping.
 */
export function ReadingChoice({
  reading,
  preview,
  choices,
  onChange,
}: {
  reading: Reading;
  preview: ImportPreview;
  choices: WizardChoices;
  /** The import's reading, or the mapping with a column's own, as changed. */
  onChange: (next: Partial<Pick<WizardChoices, 'mapping' | Reading>>) => void;
}) {
  const { t } = useTranslation('transfer');
  const needed = reading === 'dateOrder' ? preview.dateOrderNeeded : preview.decimalMarkNeeded;
  if (!needed) return null;
  const { testId, options } = readings[reading];
  const columns = columnsNeeding(preview, reading);
  const radios = (
    <Group mt="xs">
      {options(t).map((option) => (
        <Radio key={option.value} value={option.value} label={option.label} />
      ))}
    </Group>
  );

  if (columns.length <= 1) {
    const [column] = columns;
    return (
      <Radio.Group
        data-testid={testId}
        label={t(`wizard.${reading}`)}
        description={
          column ? t(`wizard.${reading}Hint`, { columns: quoted(column.heading) }) : t(`wizard.${reading}HintFixed`)
        }
        value={readingOf(choices, preview, reading, column?.index)}
        onChange={(value) =>
          // The import's choice, which the one column then reads with (a choice of its own made earlier is dropped).
          onChange({
            ...({ [reading]: value } as Partial<Pick<WizardChoices, Reading>>),
            ...(column ? { mapping: withColumnReading(choices.mapping, column.index, reading, undefined) } : {}),
          })
        }
      >
        {radios}
      </Radio.Group>
    );
  }

  return (
    <Fieldset data-testid={testId} legend={t(`wizard.${reading}`)}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t(`wizard.${reading}HintEach`)}
        </Text>
        {columns.map((column) => (
          <Radio.Group
            key={column.index}
            label={t('wizard.readingOfColumn', { column: quoted(column.heading) })}
            value={readingOf(choices, preview, reading, column.index)}
            onChange={(value) =>
              onChange({
                mapping: withColumnReading(
                  choices.mapping,
                  column.index,
                  reading,
                  value as ReadingValues[typeof reading],
                ),
              })
            }
          >
            {radios}
          </Radio.Group>
        ))}
      </Stack>
    </Fieldset>
  );
}

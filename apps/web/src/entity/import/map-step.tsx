import type { ImportPreview, ValueMapping } from '@data-platform/shared/imports';
import { Badge, Fieldset, Group, ScrollArea, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { optionLabel } from '../field-widgets/widget.ts';
import type { WizardChoices } from './import-wizard.tsx';
import {
  choiceOption,
  decideValue,
  KEEP_AS_WRITTEN,
  LEAVE_EMPTY,
  repeatedTargets,
  SKIP,
  targetKey,
  targetOf,
  type ValueMatches,
  valueChoice,
} from './wizard-logic.ts';

/** A field's label in the interface's language; a custom field's as its description names it. */
export function useImportFieldLabel(resource: string) {
  const { t } = useTranslation('entities');
  return useCallback(
    (name: string, fallback?: string) => t(`fields.${resource}.${name}`, { defaultValue: fallback ?? name }),
    [t, resource],
  );
}

/**
 * Map columns: per column of the file, the field it goes to (or Skip), as
 * suggested from its heading; then per picklist column, each distinct value
 * of the file onto one of the field's options, the server's suggestion
 * preselected, or left empty; per tags column, each onto a tag stored in the
 * field (the suggestion preselected) or kept as a new tag (nothing matched).
 */
export function MapStep({
  resource,
  preview,
  suggested,
  matches,
  choices,
  onMapping,
  onValues,
}: {
  resource: string;
  preview: ImportPreview;
  /** The columns as first suggested (their `suggestedBy`). */
  suggested: ImportPreview['columns'];
  /** How the server first suggested each value's option. */
  matches: ValueMatches;
  choices: WizardChoices;
  onMapping: (mapping: WizardChoices['mapping']) => void;
  onValues: (values: ValueMapping) => void;
}) {
  const { t } = useTranslation(['transfer', 'common', 'options']);
  const fieldLabel = useImportFieldLabel(resource);
  const targets = useMemo(
    () => [
      { value: SKIP, label: t('transfer:wizard.skip') },
      // Record ids are no field a row writes: a column of them finds the stored records to update.
      { value: 'id', label: t('transfer:wizard.targetId') },
      ...preview.fields.flatMap((field) => {
        const label = fieldLabel(field.name, field.label);
        return [
          { value: field.name, label: field.required ? `${label} *` : label },
          ...field.parts.map((part) => ({
            value: `${field.name}:${part}`,
            label: t('transfer:wizard.part', { field: label, part: t(`transfer:wizard.parts.${part}`, part) }),
          })),
        ];
      }),
    ],
    [preview.fields, fieldLabel, t],
  );
  const repeated = repeatedTargets(choices.mapping);
  const mappedFields = new Set(choices.mapping.flatMap((target) => (target ? [target.field] : [])));
  const picklists = preview.picklists.filter((picklist) => mappedFields.has(picklist.field));

  return (
    <Stack>
      <Title order={2} size="h4">
        {t('transfer:wizard.mapTitle')}
      </Title>
      <ScrollArea.Autosize mah={360} type="auto">
        <Table data-testid="import-mapping" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('transfer:wizard.column')}</Table.Th>
              <Table.Th scope="col">{t('transfer:wizard.target')}</Table.Th>
              <Table.Th scope="col">{t('transfer:wizard.suggestion')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.headings.map((heading, index) => {
              const name = heading || t('transfer:wizard.untitled', { number: index + 1 });
              const by = suggested[index]?.suggestedBy;
              const earlier = repeated.get(index);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are known by position (headings may repeat).
                <Table.Tr key={index}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {name}
                    </Text>
                  </Table.Td>
                  <Table.Td miw={260}>
                    <Select
                      aria-label={t('transfer:wizard.fieldFor', { column: name })}
                      data={targets}
                      value={targetKey(choices.mapping[index] ?? null)}
                      searchable
                      allowDeselect={false}
                      error={
                        earlier !== undefined
                          ? t('transfer:wizard.repeated', {
                              column: preview.headings[earlier] || String(earlier + 1),
                            })
                          : undefined
                      }
                      onChange={(value) => {
                        const mapping = preview.headings.map((_, i) => choices.mapping[i] ?? null);
                        mapping[index] = targetOf(value);
                        onMapping(mapping);
                      }}
                    />
                  </Table.Td>
                  <Table.Td>
                    {by && targetKey(choices.mapping[index] ?? null) === targetKey(suggested[index]?.target ?? null) ? (
                      <Badge variant="light" size="sm">
                        {t(`transfer:wizard.suggestedBy.${by}`)}
                      </Badge>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {picklists.map((picklist) => {
        const field = preview.fields.find((f) => f.name === picklist.field);
        const label = fieldLabel(picklist.field, field?.label);
        // Tags: the tags stored in the field, as written, and keeping a value as a new tag.
        const tags = picklist.newValuesKept;
        const options = [
          ...(tags ? [{ value: KEEP_AS_WRITTEN, label: t('transfer:wizard.keepNewTag') }] : []),
          ...picklist.options.map((option) => ({ value: option, label: tags ? option : optionLabel(t, option) })),
          { value: LEAVE_EMPTY, label: t(tags ? 'transfer:wizard.leaveOutTag' : 'transfer:wizard.leaveEmpty') },
        ];
        return (
          <Fieldset
            key={`${picklist.field}.${picklist.column}`}
            legend={t('transfer:wizard.valuesOf', { field: label })}
            data-testid={`import-values-${picklist.field}`}
          >
            <Stack gap="xs">
              {picklist.values.length === 0 ? <Text size="sm">{t('transfer:wizard.noValues')}</Text> : null}
              {picklist.values.map(({ value, rows }) => {
                const match = matches[picklist.field]?.[value];
                const choice = valueChoice(choices.values, picklist, value);
                return (
                  <Group key={value} wrap="nowrap" align="center">
                    <Text size="sm" w={220} truncate="end" title={value}>
                      “{value}”{' '}
                      <Text span size="xs" c="dimmed">
                        {t('transfer:wizard.rowCount', { count: rows })}
                      </Text>
                    </Text>
                    <Select
                      aria-label={t(tags ? 'transfer:wizard.tagFor' : 'transfer:wizard.optionFor', {
                        field: label,
                        value,
                      })}
                      placeholder={t('transfer:wizard.chooseOption')}
                      data={options}
                      value={choice}
                      searchable
                      clearable={!tags}
                      allowDeselect={!tags}
                      w={260}
                      error={choice === null ? t('transfer:wizard.notMatched') : undefined}
                      onChange={(next) =>
                        onValues(decideValue(choices.values, picklist.field, value, choiceOption(next, value)))
                      }
                    />
                    {match && match.by !== 'exact' && choice === match.option ? (
                      <Badge variant="light" size="sm">
                        {t(`transfer:wizard.matchedBy.${match.by}`)}
                      </Badge>
                    ) : null}
                  </Group>
                );
              })}
              {picklist.more ? (
                <Text size="xs" c="dimmed">
                  {t('transfer:wizard.moreValues')}
                </Text>
              ) : null}
            </Stack>
          </Fieldset>
        );
      })}
    </Stack>
  );
}

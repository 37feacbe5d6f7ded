import type { DuplicateRule } from '@data-platform/shared/imports';
import { duplicateActions, type ImportMode, type ImportPreview, importModes } from '@data-platform/shared/imports';
import { Alert, Badge, Group, ScrollArea, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WizardChoices } from './import-wizard.tsx';
import { useImportFieldLabel } from './map-step.tsx';
import classes from './preview-step.module.css';
import { fixedToSend, rowsWithProblems } from './wizard-logic.ts';

const NO_CHECK = '__none__';

/** A value as it would be stored, in a cell: lists joined, amounts with their currency, nothing for empty. */
export function storedText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(storedText).join('; ');
  if (typeof value === 'object') {
    const { amount, currency } = value as { amount?: unknown; currency?: unknown };
    if (amount !== undefined) return [storedText(amount), storedText(currency)].filter(Boolean).join(' ');
    return JSON.stringify(value);
  }
  return String(value);
}

/**
 * Preview: the first rows of the file as they would be stored (with the
 * values given for every row), each problem shown in its cell (or, for the row or an unmapped field, beside it), and
 * what each row would do with the duplicate rule; an update's changed cells marked, with the value they held
 * before; the rule and the mode.
 * Nothing is written until the import starts.
 */
export function PreviewStep({
  resource,
  preview,
  choices,
  busy,
  onDuplicates,
  onMode,
}: {
  resource: string;
  preview: ImportPreview;
  choices: WizardChoices;
  busy: boolean;
  onDuplicates: (duplicates: DuplicateRule | null) => void;
  onMode: (mode: ImportMode) => void;
}) {
  const { t } = useTranslation('transfer');
  const fieldLabel = useImportFieldLabel(resource);
  const labelOf = (name: string) => fieldLabel(name, preview.fields.find((f) => f.name === name)?.label);
  // The fields of the columns, then those given a value for every row.
  const fields = [
    ...new Set([
      ...choices.mapping.flatMap((target) => (target ? [target.field] : [])),
      ...Object.keys(fixedToSend(preview.fields, choices.mapping, choices.fixed)).map(
        (key) => key.split('.')[0] ?? key,
      ),
    ]),
  ];
  const withProblems = rowsWithProblems(preview.rows);
  const rule = choices.duplicates;
  // A column of record ids (an export imported again) does nothing unless duplicates are matched on it.
  const idsUnused = choices.mapping.some((target) => target?.field === 'id') && rule?.key !== 'id';
  const keyLabel = (key: string) => (key === 'id' ? t('wizard.keyId') : labelOf(key));

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('wizard.duplicateKey')}
          data={[
            { value: NO_CHECK, label: t('wizard.noDuplicateCheck') },
            ...preview.duplicateKeys.map((key) => ({ value: key, label: keyLabel(key) })),
          ]}
          value={rule?.key ?? NO_CHECK}
          allowDeselect={false}
          disabled={busy}
          onChange={(key) =>
            onDuplicates(
              !key || key === NO_CHECK
                ? null
                : {
                    key,
                    action: key === 'id' && rule?.action === 'create' ? 'update' : (rule?.action ?? 'skip'),
                  },
            )
          }
        />
        <Select
          label={t('wizard.duplicateAction')}
          data={duplicateActions.map((action) => ({
            value: action,
            label: t(`wizard.actions.${action}`),
            disabled: rule?.key === 'id' && action === 'create',
          }))}
          value={rule?.action ?? null}
          placeholder={t('wizard.pickKeyFirst')}
          allowDeselect={false}
          disabled={busy || !rule}
          onChange={(action) =>
            rule && action && onDuplicates({ key: rule.key, action: action as DuplicateRule['action'] })
          }
        />
        <Select
          label={t('wizard.mode')}
          data={importModes.map((mode) => ({ value: mode, label: t(`wizard.modes.${mode}`) }))}
          value={choices.mode}
          allowDeselect={false}
          onChange={(mode) => mode && onMode(mode as ImportMode)}
        />
      </Group>
      <Text size="sm" c="dimmed">
        {t(`wizard.modeHint.${choices.mode}`)}
      </Text>
      {idsUnused ? (
        <Alert color="yellow" data-testid="import-ids-unused">
          {t('wizard.idsUnused')}
        </Alert>
      ) : null}
      <Title order={2} size="h4">
        {t('wizard.previewTitle', { count: preview.rows.length })}
      </Title>
      {withProblems > 0 ? (
        <Alert color="orange" data-testid="import-preview-summary">
          {t('wizard.previewProblems', { count: withProblems, shown: preview.rows.length })}
        </Alert>
      ) : (
        <Alert color="green" data-testid="import-preview-summary">
          {t('wizard.previewClean', { count: preview.rows.length })}
        </Alert>
      )}
      <ScrollArea type="auto">
        <Table data-testid="import-preview" className={classes.table} withTableBorder withColumnBorders miw={600}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('wizard.row')}</Table.Th>
              {rule ? <Table.Th scope="col">{t('wizard.action')}</Table.Th> : null}
              {fields.map((field) => (
                <Table.Th scope="col" key={field}>
                  {labelOf(field)}
                </Table.Th>
              ))}
              <Table.Th scope="col">{t('wizard.otherProblems')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((row) => {
              const others = Object.entries(row.problems).filter(([field]) => !fields.includes(field));
              const bad = Object.keys(row.problems).length > 0;
              return (
                <Table.Tr key={row.row} data-problem={bad || undefined}>
                  <Table.Th scope="row">{row.row}</Table.Th>
                  {rule ? (
                    <Table.Td>
                      {row.action ? (
                        // A badge shrinks to its ellipsis (its label hides its overflow): here the column is as wide as it.
                        <Badge variant="light" miw="max-content">
                          {t(`wizard.rowActions.${row.action}`)}
                        </Badge>
                      ) : null}
                    </Table.Td>
                  ) : null}
                  {fields.map((field) => {
                    const problem = row.problems[field];
                    const before = Object.hasOwn(row.previous, field)
                      ? (row.previousNames[field] ?? storedText(row.previous[field]))
                      : undefined;
                    return (
                      <Table.Td
                        key={field}
                        data-problem={problem ? true : undefined}
                        data-changed={before !== undefined || undefined}
                        bg={
                          problem
                            ? 'var(--mantine-color-red-light)'
                            : before !== undefined
                              ? 'var(--mantine-color-yellow-light)'
                              : undefined
                        }
                      >
                        <Text size="sm" fw={before !== undefined ? 600 : undefined}>
                          {row.names[field] ?? storedText(row.values[field])}
                        </Text>
                        {before === '' ? <Text size="xs">{t('wizard.beforeEmpty')}</Text> : null}
                        {before ? (
                          <Text size="xs">
                            {t('wizard.before')}{' '}
                            <Text span inherit td="line-through">
                              {before}
                            </Text>
                          </Text>
                        ) : null}
                        {problem ? (
                          <Text size="xs" c="red.9" fw={500}>
                            {problem}
                          </Text>
                        ) : null}
                      </Table.Td>
                    );
                  })}
                  <Table.Td bg={others.length > 0 ? 'var(--mantine-color-red-light)' : undefined}>
                    {others.map(([field, message]) => (
                      <Text size="xs" c="red.9" fw={500} key={field}>
                        {field === 'row' ? message : `${labelOf(field)}: ${message}`}
                      </Text>
                    ))}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Stack>
  );
}

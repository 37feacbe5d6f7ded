import type { DateOrder, DecimalMark } from '@data-platform/shared/fields/cell-formats';
import type {
  ColumnTarget,
  DuplicateRule,
  FixedValues as Fixed,
  ImportMode,
  ImportPreview,
  ValueMapping,
} from '@data-platform/shared/imports';
import { Badge, Button, FileInput, Group, Modal, NumberInput, Select, Stack, Stepper, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Failure, FailureAlert, useFailure } from './failure.tsx';
import { FixedValues } from './fixed-values.tsx';
import { useFollowedJob } from './follow-job.ts';
import { usePreviewImportMutation, useStartImportMutation, useUploadImportMutation } from './import-api.ts';
import { JobDone, JobProgress } from './job-view.tsx';
import { MapStep } from './map-step.tsx';
import { PreviewStep } from './preview-step.tsx';
import { ReadingChoice } from './reading-choices.tsx';
import { RecentImports } from './recent-imports.tsx';
import { fixedToSend, type ValueMatches, valuesToSend, withMatches, withSuggestions } from './wizard-logic.ts';

/** What the user has chosen so far: how the file is read and mapped, and how it is imported. */
export interface WizardChoices {
  sheet: string | null;
  headerRow: number;
  /** Per column, its target or null (skipped); with its own day/month order or decimal mark when one is chosen for it. */
  mapping: (ColumnTarget | null)[];
  values: ValueMapping;
  /** Values for every row of fields no column maps to, by `fixed` key (blank ones are not sent). */
  fixed: Fixed;
  /** The day/month order of dates that could be either way (where a column has none of its own in `mapping`); null keeps the preview's suggestion. */
  dateOrder: DateOrder | null;
  /** The decimal mark of numbers that could be either way (where a column has none of its own in `mapping`); null keeps the preview's suggestion. */
  decimalMark: DecimalMark | null;
  duplicates: DuplicateRule | null;
  mode: ImportMode;
}

/** The choices before the first preview: nothing mapped yet, every reading left to the preview's suggestion. */
export const firstChoices: WizardChoices = {
  sheet: null,
  headerRow: 1,
  mapping: [],
  values: {},
  fixed: {},
  dateOrder: null,
  decimalMark: null,
  duplicates: null,
  mode: 'allOrNothing',
};

const STEPS = ['upload', 'map', 'preview', 'import', 'done'] as const;

/**
 * The import wizard (issue #14) over the import jobs of the server (decision
 * 0026): Upload (the file, its sheet and heading row) → Map columns (a field
 * per column or skip, as suggested; picklist values onto options, as
 * suggested; a value for every row of fields no column maps to; the order of
 * day and month when the dates could be either way, and the decimal mark
 * when the numbers could, per column when several need it) → Preview (the first rows as they would be stored with each
 * problem, the duplicate rule and the mode) → Import (the job's progress,
 * cancellable) → Done (counts, bad rows, undo). A job started here is named
 * in the page's address (`?import=<id>`, import-modal.tsx), so that a reload
 * shows it again.
 */
export function ImportWizard({
  resource,
  opened,
  jobId,
  onJob,
  onClose,
}: {
  resource: string;
  opened: boolean;
  /** The job followed, from the page's address; null before one is started. */
  jobId: number | null;
  onJob: (id: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('transfer');
  const toFailure = useFailure();
  const [upload, { isLoading: uploading }] = useUploadImportMutation();
  const [previewFile, { isLoading: previewing }] = usePreviewImportMutation();
  const [start, { isLoading: starting }] = useStartImportMutation();
  const [file, setFile] = useState<File | null>(null);
  const [step, setStep] = useState<0 | 1 | 2>(0);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [suggested, setSuggested] = useState<ImportPreview['columns']>([]);
  const [matches, setMatches] = useState<ValueMatches>({});
  const [choices, setChoices] = useState<WizardChoices>(firstChoices);
  const [failure, setFailure] = useState<Failure | null>(null);
  // Previews answer in any order: only the newest one asked is shown.
  const asked = useRef(0);
  const followed = useFollowedJob(resource, jobId);

  const sendUpload = async () => {
    if (!file) return;
    setFailure(null);
    const answer = await upload({ entity: resource, file });
    if ('error' in answer) return setFailure(toFailure(answer.error));
    const first = answer.data;
    setPreview(first);
    setSuggested(first.columns);
    setMatches(withMatches({}, first.picklists));
    setChoices((now) => ({
      ...now,
      sheet: first.sheet,
      headerRow: first.headerRow,
      mapping: first.columns.map((c) => c.target),
      values: withSuggestions({}, first.picklists),
      fixed: {},
      dateOrder: null,
      decimalMark: null,
      duplicates: null,
    }));
    setStep(1);
  };

  /** Previews the file again with `next` (the mapping suggested again when `suggest`); answers whether it could. */
  const refresh = async (next: WizardChoices, suggest = false): Promise<boolean> => {
    if (!preview) return false;
    setChoices(next);
    const mine = ++asked.current;
    const answer = await previewFile({
      entity: resource,
      uploadId: preview.uploadId,
      ...(next.sheet ? { sheet: next.sheet } : {}),
      headerRow: next.headerRow,
      ...(suggest
        ? {}
        : {
            mapping: next.mapping,
            values: valuesToSend(next.mapping, next.values),
            fixed: fixedToSend(preview.fields, next.mapping, next.fixed),
          }),
      ...(next.dateOrder ? { dateOrder: next.dateOrder } : {}),
      ...(next.decimalMark ? { decimalMark: next.decimalMark } : {}),
      ...(next.duplicates && !suggest ? { duplicates: next.duplicates } : {}),
    });
    if (mine !== asked.current) return false;
    if ('error' in answer) {
      setFailure(toFailure(answer.error));
      return false;
    }
    setFailure(null);
    const fresh = answer.data;
    setPreview(fresh);
    if (suggest) setSuggested(fresh.columns);
    setMatches((seen) => withMatches(suggest ? {} : seen, fresh.picklists));
    setChoices({
      ...next,
      ...(suggest ? { mapping: fresh.columns.map((c) => c.target), values: {}, fixed: {}, duplicates: null } : {}),
      values: withSuggestions(suggest ? {} : next.values, fresh.picklists),
    });
    return true;
  };

  const startJob = async () => {
    if (!preview) return;
    setFailure(null);
    const answer = await start({
      entity: resource,
      uploadId: preview.uploadId,
      ...(choices.sheet ? { sheet: choices.sheet } : {}),
      headerRow: choices.headerRow,
      mapping: choices.mapping,
      values: valuesToSend(choices.mapping, choices.values),
      fixed: fixedToSend(preview.fields, choices.mapping, choices.fixed),
      // The order the preview read with: the user's, or the one it suggested.
      dateOrder: choices.dateOrder ?? preview.dateOrder,
      decimalMark: choices.decimalMark ?? preview.decimalMark,
      ...(choices.duplicates ? { duplicates: choices.duplicates } : {}),
      mode: choices.mode,
    });
    if ('error' in answer) return setFailure(toFailure(answer.error));
    onJob(answer.data.id);
  };

  const job = followed.job;
  // An ended job shows every step done.
  const active = jobId === null ? step : job && !followed.going ? STEPS.length : 3;
  const busy = uploading || previewing || starting;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('wizard.title')}
      size="min(72rem, 96vw)"
      closeButtonProps={{ 'aria-label': t('wizard.close') }}
    >
      <Stack>
        <Stepper active={active} size="sm" allowNextStepsSelect={false}>
          {STEPS.map((name) => (
            <Stepper.Step key={name} label={t(`wizard.steps.${name}`)} />
          ))}
        </Stepper>
        <FailureAlert failure={failure} />
        {jobId !== null ? (
          followed.failure ? (
            <FailureAlert failure={followed.failure} />
          ) : job && followed.going ? (
            <JobProgress
              job={job}
              onCancel={followed.cancel}
              cancelling={followed.cancelling}
              cancelAsked={followed.cancelAsked}
            />
          ) : job ? (
            <JobDone job={job} resource={resource} follow={followed} onClose={onClose} />
          ) : (
            <Text aria-live="polite">{t('wizard.loadingJob')}</Text>
          )
        ) : step === 0 ? (
          <Stack>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void sendUpload();
              }}
            >
              <Stack>
                <Text size="sm">{t('wizard.uploadHint')}</Text>
                <FileInput
                  label={t('wizard.file')}
                  accept=".csv,.xlsx,.txt,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  value={file}
                  onChange={setFile}
                  clearable
                  clearButtonProps={{ 'aria-label': t('wizard.clearFile') }}
                  required
                />
                <Group justify="flex-end">
                  <Button variant="default" onClick={onClose}>
                    {t('wizard.cancel')}
                  </Button>
                  <Button type="submit" loading={uploading} disabled={!file}>
                    {t('wizard.upload')}
                  </Button>
                </Group>
              </Stack>
            </form>
            <RecentImports resource={resource} onOpen={onJob} />
          </Stack>
        ) : preview && step === 1 ? (
          <Stack>
            <ReadingControls
              preview={preview}
              choices={choices}
              busy={busy}
              onChange={(next) => void refresh({ ...choices, ...next }, true)}
            />
            <MapStep
              resource={resource}
              preview={preview}
              suggested={suggested}
              matches={matches}
              choices={choices}
              onMapping={(mapping) => void refresh({ ...choices, mapping, duplicates: null })}
              onValues={(values) => setChoices({ ...choices, values })}
            />
            <FixedValues
              resource={resource}
              preview={preview}
              mapping={choices.mapping}
              fixed={choices.fixed}
              onFixed={(fixed) => setChoices({ ...choices, fixed })}
            />
            {(['dateOrder', 'decimalMark'] as const).map((reading) => (
              <ReadingChoice
                key={reading}
                reading={reading}
                preview={preview}
                choices={choices}
                onChange={(next) => setChoices({ ...choices, ...next })}
              />
            ))}
            <Group justify="space-between">
              <Button variant="default" onClick={() => setStep(0)}>
                {t('wizard.back')}
              </Button>
              <Button
                loading={previewing}
                disabled={choices.mapping.every((target) => target === null)}
                onClick={async () => {
                  if (await refresh(choices)) setStep(2);
                }}
              >
                {t('wizard.toPreview')}
              </Button>
            </Group>
          </Stack>
        ) : preview && step === 2 ? (
          <Stack>
            <PreviewStep
              resource={resource}
              preview={preview}
              choices={choices}
              busy={previewing}
              onDuplicates={(duplicates: DuplicateRule | null) => void refresh({ ...choices, duplicates })}
              onMode={(mode: ImportMode) => setChoices({ ...choices, mode })}
            />
            <Group justify="space-between">
              <Button variant="default" onClick={() => setStep(1)}>
                {t('wizard.back')}
              </Button>
              <Button loading={starting} disabled={previewing} onClick={() => void startJob()}>
                {t('wizard.start')}
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Stack>
    </Modal>
  );
}

/** The sheet of a workbook and the row of headings; changing either suggests the mapping again. */
function ReadingControls({
  preview,
  choices,
  busy,
  onChange,
}: {
  preview: ImportPreview;
  choices: WizardChoices;
  busy: boolean;
  onChange: (next: Partial<WizardChoices>) => void;
}) {
  const { t } = useTranslation('transfer');
  const [headerRow, setHeaderRow] = useState<number>(choices.headerRow);
  return (
    <Group align="flex-end" wrap="wrap">
      <Text size="sm" c="dimmed">
        {preview.fileName}
        {preview.dialect
          ? ` · ${preview.dialect.encoding}, ${t(`wizard.delimiters.${delimiterName(preview.dialect.delimiter)}`)}`
          : ''}
      </Text>
      {preview.kind === 'xlsx' && preview.sheets.length > 0 ? (
        <Select
          label={t('wizard.sheet')}
          data={preview.sheets}
          value={choices.sheet}
          allowDeselect={false}
          disabled={busy}
          onChange={(sheet) => sheet && onChange({ sheet })}
        />
      ) : null}
      <NumberInput
        label={t('wizard.headerRow')}
        min={1}
        max={10_000}
        value={headerRow}
        onChange={(value) => setHeaderRow(typeof value === 'number' ? value : Number(value) || 1)}
        w={140}
      />
      <Button
        variant="default"
        disabled={busy || headerRow === choices.headerRow}
        onClick={() => onChange({ headerRow })}
      >
        {t('wizard.readAgain')}
      </Button>
      <Badge variant="light">{t('wizard.columnsCount', { count: preview.headings.length })}</Badge>
    </Group>
  );
}

const delimiterName = (delimiter: string) => (delimiter === ',' ? 'comma' : delimiter === ';' ? 'semicolon' : 'tab');

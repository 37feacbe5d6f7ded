import { Alert, FileInput, Modal, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { isApiFailure } from '../store/http.ts';
import { useFieldLabel } from './cell-value.tsx';
import { FormButtons } from './form-buttons.tsx';
import { useImportMutation } from './record-api.ts';

interface Refusal {
  message: string;
  /** `<row>.<field>` → what is wrong, or `file` → what is wrong with the file. */
  fields: Record<string, string>;
}

/**
 * The import dialog: a CSV or XLSX file of new records, as an export writes
 * them. The server checks every row first and imports all or none; a refusal
 * lists each row and field to mend. Loaded when first opened (import-modal.tsx).
 */
export function ImportDialog({
  resource,
  opened,
  onClose,
}: {
  resource: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [importFile, { isLoading: working }] = useImportMutation(resource);
  const label = useFieldLabel(resource);
  const [file, setFile] = useState<File | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const close = () => {
    if (working) return;
    onClose();
    setFile(null);
    setRefusal(null);
  };

  const upload = async () => {
    if (!file) return;
    setRefusal(null);
    // The import invalidates the resource's lists: the new rows show without a reload.
    const result = await importFile(file);
    if ('data' in result && result.data) {
      toast.success(t('import.done', { count: result.data.created }));
      onClose();
      setFile(null);
      return;
    }
    const { error } = result;
    setRefusal(
      isApiFailure(error) && error.status !== 0
        ? { message: error.message, fields: error.fields ?? {} }
        : { message: t('import.failed'), fields: {} },
    );
  };

  const rows = Object.entries(refusal?.fields ?? {});
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('import.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('actions.close') }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void upload();
        }}
      >
        <Stack>
          <Text size="sm">{t('import.hint')}</Text>
          <FileInput
            label={t('import.file')}
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            value={file}
            onChange={setFile}
            clearable
            clearButtonProps={{ 'aria-label': t('import.clearFile') }}
            required
          />
          {refusal ? (
            <Alert color="red" role="alert" title={refusal.message}>
              {rows.length > 0 ? (
                <Table data-testid="import-errors">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t('import.row')}</Table.Th>
                      <Table.Th scope="col">{t('import.field')}</Table.Th>
                      <Table.Th scope="col">{t('import.problem')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map(([where, message]) => {
                      const [row, field] = where.includes('.') ? where.split('.', 2) : ['', where];
                      return (
                        <Table.Tr key={where}>
                          <Table.Td>{row}</Table.Td>
                          <Table.Td>{field === 'file' ? t('import.file') : label(field ?? '')}</Table.Td>
                          <Table.Td>{message}</Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              ) : null}
            </Alert>
          ) : null}
          <FormButtons submitLabel={t('actions.import')} onCancel={close} working={working} disabled={!file} />
        </Stack>
      </form>
    </Modal>
  );
}

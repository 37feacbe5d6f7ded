import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  FileButton,
  Group,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { type DragEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useFormat } from '../i18n/format.ts';
import { isApiFailure, queryString } from '../store/http.ts';
import { LoadMore } from './load-more.tsx';
import {
  PANEL_PAGE_SIZE,
  useDeleteRecordMutation,
  useDownloadContentMutation,
  useListInfiniteQuery,
  useUploadMutation,
} from './record-api.ts';
import { useMay } from './record-routes.ts';

const FILES = 'files';

/** A record's files: upload by button or drop with progress, download, delete. */
export function FilesPanel({ resource, id }: { resource: string; id: number }) {
  const { t } = useTranslation(['record', 'common', 'errors']);
  const may = useMay(FILES);
  const format = useFormat();
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const params = useMemo<[string, string][]>(
    () => [
      ['filter[entity][eq]', resource],
      ['filter[recordId][eq]', String(id)],
      ['select', 'name,size,contentType,createdAt'],
      ['sort', '-createdAt'],
      ['pageSize', PANEL_PAGE_SIZE],
    ],
    [resource, id],
  );
  const pages = useListInfiniteQuery({ resource: FILES, params }, { skip: !may('read') });
  const [remove] = useDeleteRecordMutation(FILES);
  const [upload] = useUploadMutation(FILES);
  const [download] = useDownloadContentMutation(FILES);
  if (!may('read')) return null;
  const files = pages.data?.pages.flatMap((page) => page.data) ?? [];
  const canUpload = may('create');

  const send = async (file: File | null) => {
    if (!file) return;
    setFailure(null);
    setProgress({ name: file.name, fraction: 0 });
    const result = await upload({
      query: queryString({ entity: resource, recordId: id }),
      file,
      onProgress: (fraction) => setProgress({ name: file.name, fraction }),
    });
    setProgress(null);
    if ('error' in result) {
      const message = (isApiFailure(result.error) && result.error.message) || t('errors:network');
      setFailure(t('files.refused', { name: file.name, message }));
    } else toast.success(t('files.uploaded', { name: file.name }));
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (canUpload) void send(event.dataTransfer.files[0] ?? null);
  };

  return (
    <Card
      withBorder
      component="section"
      aria-label={t('files.title')}
      onDragOver={(event: DragEvent) => {
        if (!canUpload) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      style={over ? { outline: '2px dashed var(--mantine-primary-color-filled)' } : undefined}
      data-testid="files-panel"
    >
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {t('files.title')}
        </Title>
        {canUpload ? (
          <FileButton onChange={(file) => void send(file)}>
            {(props) => (
              <Button {...props} size="xs" variant="light" leftSection={<IconUpload size={14} aria-hidden />}>
                {t('files.upload')}
              </Button>
            )}
          </FileButton>
        ) : null}
      </Group>
      <Stack gap="xs">
        {canUpload ? (
          <Text size="xs" c="dimmed">
            {t('files.drop')}
          </Text>
        ) : null}
        {progress ? (
          <div>
            <Text size="sm">{t('files.uploading', { name: progress.name })}</Text>
            <Progress value={Math.round(progress.fraction * 100)} aria-label={t('files.progress')} animated />
          </div>
        ) : null}
        {failure ? (
          <Alert
            color="red"
            role="alert"
            withCloseButton
            onClose={() => setFailure(null)}
            closeButtonLabel={t('common:toast.close')}
          >
            {failure}
          </Alert>
        ) : null}
        {files.length === 0 && !pages.isFetching ? (
          <Text c="dimmed" size="sm">
            {t('files.none')}
          </Text>
        ) : (
          <Table verticalSpacing={4}>
            <Table.Tbody>
              {files.map((file) => (
                <Table.Tr key={file.id}>
                  <Table.Td>
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      onClick={() =>
                        void download({ id: file.id, name: String(file.name ?? FILES) }).then((result) => {
                          if ('error' in result && isApiFailure(result.error)) toast.error(result.error.message);
                        })
                      }
                    >
                      {String(file.name)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {format.fileSize(Number(file.size))}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {format.dateTime(String(file.createdAt))}
                    </Text>
                  </Table.Td>
                  {may('delete') ? (
                    <Table.Td w={40}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('files.delete', { name: String(file.name) })}
                        onClick={() =>
                          void remove(file.id).then((result) => {
                            if (!('error' in result)) toast.success(t('files.deleted'));
                          })
                        }
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <LoadMore pages={pages} />
      </Stack>
    </Card>
  );
}

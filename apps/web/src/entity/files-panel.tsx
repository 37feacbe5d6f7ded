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
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import type { Row } from '../store/resource-slices.ts';
import { recordApi, useDeleteRecordMutation, usePagesInfiniteQuery } from './record-api.ts';
import { useMay } from './record-routes.ts';

/** Sends one file with XMLHttpRequest, whose upload events tell the progress; answers the server's error message. */
function upload(url: string, file: File, token: string | null, onProgress: (fraction: number) => void) {
  return new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      let message = request.statusText || `HTTP ${request.status}`;
      try {
        const body = JSON.parse(request.responseText) as { error?: { message?: string } };
        message = body.error?.message ?? message;
      } catch {
        // Not JSON (a proxy's page): the status says enough.
      }
      reject(new Error(message));
    };
    request.onerror = () => reject(new Error(''));
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}

/** Fetches the bytes with the session's token and hands them to the browser as a download. */
async function download(file: Row, token: string | null) {
  const response = await fetch(`/api/v1/files/${file.id}/content`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new Error(response.statusText);
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = String(file.name ?? 'file');
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A record's files: upload by button or drop with progress, download, delete. */
export function FilesPanel({ resource, id }: { resource: string; id: number }) {
  const { t } = useTranslation(['record', 'common', 'errors']);
  const may = useMay('files');
  const format = useFormat();
  const dispatch = useAppDispatch();
  const token = useAppSelector((state) => state.auth.token);
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const params = useMemo<[string, string][]>(
    () => [
      ['filter[entity][eq]', resource],
      ['filter[recordId][eq]', String(id)],
      ['select', 'name,size,contentType,createdAt'],
      ['sort', '-createdAt'],
    ],
    [resource, id],
  );
  const pages = usePagesInfiniteQuery({ path: 'files', params }, { skip: !may('read') });
  const [remove] = useDeleteRecordMutation();
  if (!may('read')) return null;
  const files = pages.data?.pages.flatMap((page) => page.data) ?? [];
  const canUpload = may('create');

  const send = async (file: File | null) => {
    if (!file) return;
    setFailure(null);
    setProgress({ name: file.name, fraction: 0 });
    try {
      await upload(`/api/v1/files?entity=${resource}&recordId=${id}`, file, token, (fraction) =>
        setProgress({ name: file.name, fraction }),
      );
      toast.success(t('files.uploaded', { name: file.name }));
      dispatch(recordApi.util.invalidateTags(['Pages']));
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : t('errors:network');
      setFailure(t('files.refused', { name: file.name, message }));
    } finally {
      setProgress(null);
    }
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
                        void download(file, token).catch((error: unknown) =>
                          toast.error(error instanceof Error ? error.message : String(error)),
                        )
                      }
                    >
                      {String(file.name)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" c="dimmed">
                      {t('files.size', { size: format.compact(Number(file.size)) })}
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
                          void remove({ resource: 'files', id: file.id }).then((result) => {
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
        {pages.hasNextPage ? (
          <Group justify="center">
            <Button
              variant="default"
              size="xs"
              loading={pages.isFetchingNextPage}
              onClick={() => void pages.fetchNextPage()}
            >
              {t('common:actions.loadMore')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

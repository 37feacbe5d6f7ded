import {
  type DuplicatePair,
  type DuplicateReason,
  duplicateEntities,
  type MergeResult,
} from '@data-platform/shared/duplicates';
import type { EntityDescription } from '@data-platform/shared/entities/entity';
import { recordName } from '@data-platform/shared/entities/record-name';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { useFieldLabel } from '../../entity/cell-value.tsx';
import { recordPath, useMay } from '../../entity/record-routes.ts';
import { useFormat } from '../../i18n/format.ts';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { useAppDispatch } from '../../store/hooks.ts';
import { resourceApi } from '../../store/resource-slices.ts';
import { useDismissDuplicateMutation, useDuplicatesInfiniteQuery } from './duplicates-api.ts';
import { MergeDialog } from './merge-dialog.tsx';

/** `/companies/duplicates`: the list's likely duplicates, for entities whose description says `duplicates: true`. */
export function DuplicatesPage() {
  const { t } = useTranslation('duplicates');
  const segment = useParams().resource ?? '';
  const entity = duplicateEntities.find((e) => e.navigation?.path === `/${segment}`);
  const may = useMay(entity?.name ?? segment);
  if (!entity) return <Alert color="gray">{t('notFound')}</Alert>;
  if (!may('read')) return <Alert color="red">{t('notAllowed')}</Alert>;
  return <DuplicatesList key={entity.name} entity={entity} />;
}

/** One reason a pair is listed, in the reader's words: "Same domain: acme.com", "Similar name (92 % alike)". */
function ReasonBadge({ entity, reason }: { entity: EntityDescription; reason: DuplicateReason }) {
  const { t } = useTranslation('duplicates');
  const label = useFieldLabel(entity.name);
  const format = useFormat();
  const field = label(reason.field, entity.fields[reason.field]);
  const text =
    reason.kind === 'sameValue'
      ? t('reason.sameValue', { field: field.toLocaleLowerCase(), value: reason.value })
      : t('reason.similarName', {
          field: field.toLocaleLowerCase(),
          score: format.percent(Math.round(reason.score * 100)),
        });
  return (
    <Badge variant="dot" color={reason.kind === 'sameValue' ? 'orange' : 'blue'} tt="none" size="lg">
      {text}
    </Badge>
  );
}

function DuplicatesList({ entity }: { entity: EntityDescription }) {
  const { t } = useTranslation(['duplicates', 'entities']);
  const localized = useLocalizedPath();
  const dispatch = useAppDispatch();
  const may = useMay(entity.name);
  const plural = t(`entities:resources.${entity.name}.other`);
  const { data, isLoading, isError, hasNextPage, fetchNextPage, isFetchingNextPage, refetch } =
    useDuplicatesInfiniteQuery(entity.name, { refetchOnMountOrArgChange: true });
  const [dismiss, dismissing] = useDismissDuplicateMutation();
  const [merging, setMerging] = useState<readonly [number, number] | null>(null);
  const [lastMerge, setLastMerge] = useState<{ id: number; name: string } | null>(null);
  const pairs = data?.pages.flatMap((page) => page.data) ?? [];
  const mayMerge = may('update') && may('delete');
  const showPath = (id: number) => {
    const path = recordPath(entity.name, id, 'show');
    return path ? localized(path) : undefined;
  };

  const onDismiss = async (pair: DuplicatePair) => {
    const [a, b] = pair.records;
    const result = await dismiss({ resource: entity.name, ids: [a.id, b.id] });
    if ('error' in result) return;
    toast.success(t('dismissed', { a: a.name, b: b.name }));
    void refetch();
  };

  const onMerged = (result: MergeResult) => {
    const id = Number(result.record.id);
    const name = recordName(entity, result.record);
    setMerging(null);
    setLastMerge({ id, name });
    toast.success(t('merged', { name }));
    // The survivor's page and every list read the merge's outcome. The merged record is not asked for again: it is gone.
    dispatch(resourceApi(entity.name).util.invalidateTags(['List', { type: 'Record', id }]));
    void refetch();
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Title order={1} size="h2">
          {t('title', { plural })}
        </Title>
        {entity.navigation ? (
          <Button
            component={Link}
            to={localized(entity.navigation.path)}
            variant="default"
            size="xs"
            leftSection={<IconArrowLeft size={14} aria-hidden />}
          >
            {t('backToList', { plural: plural.toLocaleLowerCase() })}
          </Button>
        ) : null}
      </Group>
      <Text c="dimmed" size="sm">
        {t('intro')}
      </Text>
      {lastMerge ? (
        <Alert
          color="green"
          withCloseButton
          closeButtonLabel={t('close')}
          onClose={() => setLastMerge(null)}
          data-testid="merge-done"
        >
          <Group gap="xs">
            <Text size="sm">{t('merged', { name: lastMerge.name })}</Text>
            {showPath(lastMerge.id) ? (
              <Anchor component={Link} to={showPath(lastMerge.id) ?? ''} size="sm" fw={600}>
                {t('open')}
              </Anchor>
            ) : null}
          </Group>
        </Alert>
      ) : null}
      {isLoading ? (
        <Group gap="xs">
          <Loader size="sm" role="status" aria-label={t('common:list.loading')} />
          <Text size="sm">{t('loading')}</Text>
        </Group>
      ) : null}
      {isError ? <Alert color="red">{t('loadFailed')}</Alert> : null}
      {!isLoading && !isError && pairs.length === 0 && !hasNextPage ? <Text c="dimmed">{t('none')}</Text> : null}
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {pairs.map((pair) => (
          <Card
            key={pair.records.map((r) => r.id).join('-')}
            withBorder
            component="li"
            data-testid="duplicate-pair"
            padding="sm"
          >
            <Group justify="space-between" align="center" wrap="wrap">
              <Stack gap={6}>
                <Group gap="xs">
                  {pair.records.map((record, i) => (
                    <Group gap="xs" key={record.id}>
                      {i > 0 ? (
                        <Text c="dimmed" aria-hidden>
                          ≈
                        </Text>
                      ) : null}
                      {showPath(record.id) ? (
                        <Anchor component={Link} to={showPath(record.id) ?? ''} fw={600}>
                          {record.name}
                        </Anchor>
                      ) : (
                        <Text fw={600}>{record.name}</Text>
                      )}
                    </Group>
                  ))}
                </Group>
                <Group gap="xs">
                  {pair.reasons.map((reason) => (
                    <ReasonBadge key={`${reason.kind}-${reason.field}`} entity={entity} reason={reason} />
                  ))}
                </Group>
              </Stack>
              <Group gap="xs">
                {may('update') ? (
                  <Button
                    variant="default"
                    size="xs"
                    onClick={() => void onDismiss(pair)}
                    disabled={dismissing.isLoading}
                  >
                    {t('dismiss')}
                  </Button>
                ) : null}
                {mayMerge ? (
                  <Button size="xs" onClick={() => setMerging([pair.records[0].id, pair.records[1].id])}>
                    {t('merge')}
                  </Button>
                ) : null}
              </Group>
            </Group>
          </Card>
        ))}
      </Stack>
      {hasNextPage ? (
        <Group>
          <Button variant="default" onClick={() => void fetchNextPage()} loading={isFetchingNextPage}>
            {t('lookFurther')}
          </Button>
        </Group>
      ) : null}
      {merging ? (
        <MergeDialog entity={entity} ids={merging} onClose={() => setMerging(null)} onMerged={onMerged} />
      ) : null}
    </Stack>
  );
}

import { Button, Card, Group, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useFormat } from '../../i18n/format.ts';
import type { Row } from '../../store/resource-slices.ts';
import { RoleSelect } from './role-select.tsx';
import { useAccessRequestsQuery, useDecideAccessMutation } from './users-api.ts';

/** People who asked for access on /register: Approve with a role, or Reject. Hidden when there are none. */
export function AccessRequests() {
  const { t } = useTranslation(['users', 'common']);
  const { data } = useAccessRequestsQuery();
  const requests = data?.data ?? [];
  if (requests.length === 0) return null;
  const title = t('requests.title', { count: data?.total ?? requests.length });
  return (
    <Card withBorder component="section" aria-label={title} data-testid="access-requests">
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      <Table verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('fields.name')}</Table.Th>
            <Table.Th>{t('fields.email')}</Table.Th>
            <Table.Th>{t('requests.askedAt')}</Table.Th>
            <Table.Th>{t('fields.role')}</Table.Th>
            <Table.Th>{t('requests.decision')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {requests.map((request) => (
            <RequestRow key={request.id} request={request} />
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function RequestRow({ request }: { request: Row }) {
  const { t } = useTranslation(['users', 'common']);
  const format = useFormat();
  const [roleId, setRoleId] = useState<number | undefined>();
  const [decide, deciding] = useDecideAccessMutation();
  const [decision, setDecision] = useState<'approve' | 'reject'>();
  const name = String(request.fullName ?? request.email);

  const send = async (chosen: 'approve' | 'reject') => {
    setDecision(chosen);
    const result = await decide({ id: request.id, decision: chosen, roleId });
    if ('error' in result) return;
    toast.success(t(chosen === 'approve' ? 'requests.approved' : 'requests.rejected', { name }));
  };

  return (
    <Table.Tr>
      <Table.Td>{name}</Table.Td>
      <Table.Td>{String(request.email)}</Table.Td>
      <Table.Td>{format.dateTime(String(request.createdAt))}</Table.Td>
      <Table.Td miw={200}>
        <RoleSelect
          label={null}
          aria-label={t('requests.roleFor', { name })}
          size="xs"
          value={roleId}
          onChange={setRoleId}
        />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            disabled={roleId === undefined}
            loading={deciding.isLoading && decision === 'approve'}
            onClick={() => void send('approve')}
            aria-label={t('requests.approve', { name })}
          >
            {t('common:actions.approve')}
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={deciding.isLoading && decision === 'reject'}
            onClick={() => void send('reject')}
            aria-label={t('requests.reject', { name })}
          >
            {t('common:actions.reject')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

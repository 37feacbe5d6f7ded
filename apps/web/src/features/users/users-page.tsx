import { Button } from '@mantine/core';
import { IconSend, IconShieldLock } from '@tabler/icons-react';
import { Suspense, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { holds } from '../../entity/access.ts';
import { ListPage } from '../../entity/list-page.tsx';
import { RowActionButton } from '../../entity/row-action.tsx';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { useAppSelector } from '../../store/hooks.ts';
import type { Row } from '../../store/resource-slices.ts';
import { RetentionSetting } from '../history/parts.ts';
import { AccessRequests } from './access-requests.tsx';
import { useCanGrant } from './role-select.tsx';
import { useResendInvitationMutation, useRolesQuery } from './users-api.ts';

/** Mails an invited user a new link (the previous one stops working). */
export function ResendInviteButton({ user, compact }: { user: Row; compact?: boolean }) {
  const { t } = useTranslation(['users', 'common']);
  const [resend, resending] = useResendInvitationMutation();
  const email = String(user.email);
  const onClick = async () => {
    const result = await resend(user.id);
    if (!('error' in result)) toast.success(t('invite.resent', { email }));
  };
  if (compact) {
    return (
      <RowActionButton
        label={t('invite.resendTo', { email })}
        icon={IconSend}
        onClick={() => {
          if (!resending.isLoading) void onClick();
        }}
      />
    );
  }
  return (
    <Button
      variant="default"
      leftSection={<IconSend size={16} aria-hidden />}
      loading={resending.isLoading}
      onClick={() => void onClick()}
    >
      {t('common:actions.resendInvite')}
    </Button>
  );
}

/** `/users`: the users list, with invitations, pending access requests, and Manage roles. */
export function UsersPage() {
  const { t } = useTranslation(['users', 'common']);
  const localized = useLocalizedPath();
  const user = useAppSelector((state) => state.auth.currentUser?.user);
  const managesUsers = holds(user, ['users:manage']);
  const managesRoles = holds(user, ['roles:manage']);
  const { data: roles } = useRolesQuery(undefined, { skip: !managesUsers });
  const canGrant = useCanGrant();
  // Only invitations whose role holds nothing the manager lacks can be resent (the API's rule).
  const rowActions = useCallback(
    (row: Row) => {
      const role = roles?.find((r) => r.id === row.roleId);
      return managesUsers && row.status === 'invited' && role && canGrant(role) ? (
        <ResendInviteButton user={row} compact />
      ) : null;
    },
    [managesUsers, roles, canGrant],
  );
  // Nobody deletes their own account (the server answers 409 self_delete): their row offers no Delete.
  const mayDeleteRow = useCallback((row: Row) => row.id !== user?.id, [user?.id]);
  return (
    <ListPage
      resource="users"
      rootPath="/users"
      createLabel={t('common:actions.sendInvitation')}
      toolbar={
        managesRoles ? (
          <Button
            component={Link}
            to={localized('/roles')}
            size="xs"
            variant="default"
            leftSection={<IconShieldLock size={14} aria-hidden />}
          >
            {t('common:actions.manageRoles')}
          </Button>
        ) : null
      }
      header={
        managesUsers ? (
          <>
            <Suspense fallback={null}>
              <RetentionSetting />
            </Suspense>
            <AccessRequests />
          </>
        ) : null
      }
      rowActions={rowActions}
      mayDeleteRow={mayDeleteRow}
    />
  );
}

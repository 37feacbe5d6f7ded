import { Box, Button, Group, Stack, TextInput } from '@mantine/core';
import {
  IconChevronDown,
  IconDeviceFloppy,
  IconLayoutList,
  IconPencil,
  IconShare,
  IconShareOff,
  IconTrash,
} from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import { addLayout, type Layout, removeLayout, replaceLayout } from '../store/layouts-slice.ts';
import {
  useCreateSavedViewMutation,
  useDeleteSavedViewMutation,
  useUpdateSavedViewMutation,
  type ViewRef,
} from '../store/saved-views-api.ts';
import { ConfirmDelete } from './confirm-delete.tsx';
import type { ListView } from './list-state.ts';
import { OnDemandMenu } from './on-demand-menu.tsx';
import { Modal } from './on-demand-modal.tsx';
import { layoutOfView } from './saved-views.ts';

const noLayouts: Layout[] = [];

/**
 * Saved views of a list: open one, save the current one, and rename, share
 * or unshare, or delete the one open when it is the user's own (a view shared
 * by someone else can be saved as a copy). Views live on the server; the
 * layouts slice caches them.
 */
export function ListViews({
  rootPath,
  view,
  current,
}: {
  rootPath: string;
  view: ListView;
  /** The saved layout open, if any. */
  current: Layout | undefined;
  defaultShows: readonly string[];
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const localized = useLocalizedPath();
  const layouts = useAppSelector((state) => state.layouts.layouts[rootPath]) ?? noLayouts;
  const [createView, creating] = useCreateSavedViewMutation();
  const [updateView, updating] = useUpdateSavedViewMutation();
  const [deleteView, deleting] = useDeleteSavedViewMutation();
  const [naming, setNaming] = useState<'save' | 'rename' | null>(null);
  const [name, setName] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const menuId = useId();

  const state = { shows: view.shows, filters: view.filters, sort: view.sort, q: view.q };
  const own = current?.server?.mine ? current : undefined;
  const ref = (layout: Layout): ViewRef | undefined =>
    layout.server ? { id: layout.server.id, version: layout.server.version, rootPath } : undefined;
  const mine = layouts.filter((layout) => !layout.server || layout.server.mine);
  const shared = layouts.filter((layout) => layout.server && !layout.server.mine);

  /** Writes a change to the open view, and caches the server's answer. */
  const change = async (layout: Layout, changes: Parameters<typeof updateView>[0]['changes'], done: string) => {
    const target = ref(layout);
    if (!target) return;
    const answer = await updateView({ view: target, changes });
    // A refusal is told by the app's notifications (the server's message).
    if ('error' in answer) return;
    dispatch(replaceLayout({ rootPath, layout: layoutOfView(answer.data) }));
    toast.success(done);
  };

  const submit = async () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    if (naming === 'rename' && own) {
      setNaming(null);
      await change(own, { name: trimmed }, t('views.renamed', { name: trimmed }));
      return;
    }
    const answer = await createView({ rootPath, name: trimmed, state });
    // A refusal is told by the app's notifications (the server's message).
    if ('error' in answer) return;
    setNaming(null);
    const layout = layoutOfView(answer.data);
    dispatch(addLayout({ rootPath, layout }));
    toast.success(t('views.saved', { name: trimmed }));
    void navigate(localized(layout.customPath));
  };

  return (
    <>
      {/* No closing transition: a menu fading out under the dialog it opened is a menu without items. Without
          Mantine's initial-focus placeholder (a focusable role="presentation" div, which a menu may not own:
          axe aria-required-children), the first item takes the focus. */}
      <OnDemandMenu
        position="bottom-end"
        withinPortal
        withInitialFocusPlaceholder={false}
        transitionProps={{ duration: 0 }}
        target={
          <Button
            variant="default"
            size="xs"
            leftSection={<IconLayoutList size={14} aria-hidden />}
            rightSection={<IconChevronDown size={14} aria-hidden />}
          >
            {t('views.menu')}
          </Button>
        }
      >
        {(menu) => (
          <>
            {/* Each label names its items as a group: a menu owns items, groups and separators, not bare text. */}
            <Box role="group" aria-labelledby={`${menuId}-mine`}>
              <menu.Label id={`${menuId}-mine`}>{t('views.savedViews')}</menu.Label>
              {layouts.length === 0 ? <menu.Item disabled>{t('views.none')}</menu.Item> : null}
              {mine.map((layout) => (
                <menu.Item key={layout.pathId} component={Link} to={localized(layout.customPath)}>
                  {layout.name}
                  {layout.server?.shared ? ` · ${t('views.sharedMark')}` : ''}
                </menu.Item>
              ))}
            </Box>
            {shared.length > 0 ? (
              <Box role="group" aria-labelledby={`${menuId}-shared`}>
                <menu.Label id={`${menuId}-shared`}>{t('views.sharedWithMe')}</menu.Label>
                {shared.map((layout) => (
                  <menu.Item key={layout.pathId} component={Link} to={localized(layout.customPath)}>
                    {t('views.sharedBy', { name: layout.name, owner: layout.server?.ownerName ?? '' })}
                  </menu.Item>
                ))}
              </Box>
            ) : null}
            <menu.Divider role="separator" />
            {own ? (
              <menu.Item
                leftSection={<IconDeviceFloppy size={14} aria-hidden />}
                onClick={() => void change(own, { state }, t('views.updated', { name: own.name }))}
              >
                {t('views.update')}
              </menu.Item>
            ) : null}
            <menu.Item
              leftSection={<IconDeviceFloppy size={14} aria-hidden />}
              onClick={() => {
                setName(current && !own ? t('views.copyName', { name: current.name }) : '');
                setNaming('save');
              }}
            >
              {current && !own ? t('views.saveCopy') : t('views.saveAs')}
            </menu.Item>
            {own ? (
              <>
                <menu.Item
                  leftSection={<IconPencil size={14} aria-hidden />}
                  onClick={() => {
                    setName(own.name);
                    setNaming('rename');
                  }}
                >
                  {t('views.rename')}
                </menu.Item>
                {own.server?.shared ? (
                  <menu.Item
                    leftSection={<IconShareOff size={14} aria-hidden />}
                    onClick={() => void change(own, { shared: false }, t('views.unshared', { name: own.name }))}
                  >
                    {t('views.unshare')}
                  </menu.Item>
                ) : (
                  <menu.Item
                    leftSection={<IconShare size={14} aria-hidden />}
                    onClick={() => void change(own, { shared: true }, t('views.sharedDone', { name: own.name }))}
                  >
                    {t('views.share')}
                  </menu.Item>
                )}
                {/* The icon says danger; the text keeps the menu's contrast (red text on white is 3.3:1). */}
                <menu.Item
                  leftSection={<IconTrash size={14} color="var(--mantine-color-red-filled)" aria-hidden />}
                  onClick={() => setConfirmDelete(true)}
                >
                  {t('views.delete')}
                </menu.Item>
              </>
            ) : null}
          </>
        )}
      </OnDemandMenu>
      <Modal
        closeButtonProps={{ 'aria-label': t('actions.close') }}
        opened={naming !== null}
        onClose={() => setNaming(null)}
        title={naming === 'rename' ? t('views.rename') : current && !own ? t('views.saveCopy') : t('views.saveAs')}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <Stack>
            <TextInput
              label={t('views.name')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              required
              maxLength={100}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setNaming(null)}>
                {t('actions.cancel')}
              </Button>
              <Button type="submit" disabled={!name.trim()} loading={creating.isLoading || updating.isLoading}>
                {t('actions.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <ConfirmDelete
        opened={confirmDelete}
        title={t('views.delete')}
        working={deleting.isLoading}
        onConfirm={async () => {
          const target = own && ref(own);
          if (own && target) {
            const answer = await deleteView(target);
            if ('error' in answer) {
              setConfirmDelete(false);
              return;
            }
            dispatch(removeLayout({ rootPath, customPath: own.customPath }));
            toast.success(t('views.deleted', { name: own.name }));
          }
          setConfirmDelete(false);
          void navigate(localized(rootPath));
        }}
        onCancel={() => setConfirmDelete(false)}
      >
        {t('views.confirmDelete', { name: current?.name ?? '' })}
      </ConfirmDelete>
    </>
  );
}

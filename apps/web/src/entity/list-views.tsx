import { Button, Group, Stack, TextInput } from '@mantine/core';
import { IconChevronDown, IconDeviceFloppy, IconLayoutList, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useLocalizedPath } from '../i18n/use-localized-path.ts';
import { useAppDispatch, useAppSelector } from '../store/hooks.ts';
import { queryString } from '../store/http.ts';
import { addLayout, type Layout, removeLayout, replaceLayout } from '../store/layouts-slice.ts';
import { ConfirmDelete } from './confirm-delete.tsx';
import { customPathFor, type ListView, layoutHref } from './list-state.ts';
import { OnDemandMenu } from './on-demand-menu.tsx';
import { Modal } from './on-demand-modal.tsx';

const noLayouts: Layout[] = [];

/** Saved views of a list: open one, save the current one, rename or delete the one open. */
export function ListViews({
  rootPath,
  view,
  current,
  defaultShows,
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
  const [naming, setNaming] = useState<'save' | 'rename' | null>(null);
  const [name, setName] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);

  const href = (layout: Layout) => localized(layoutHref(layout, defaultShows, queryString));
  const state = { shows: view.shows, filters: view.filters, sort: view.sort, q: view.q };

  const submit = () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    if (naming === 'rename' && current) {
      dispatch(replaceLayout({ rootPath, layout: { ...current, name: trimmed } }));
      toast.success(t('views.renamed', { name: trimmed }));
    } else {
      const layout: Layout = {
        pathId: crypto.randomUUID(),
        customPath: customPathFor(rootPath, trimmed, layouts),
        name: trimmed,
        ...state,
      };
      dispatch(addLayout({ rootPath, layout }));
      toast.success(t('views.saved', { name: trimmed }));
      void navigate(href(layout));
    }
    setNaming(null);
  };

  return (
    <>
      {/* No closing transition: a menu fading out under the dialog it opened is a menu without items. */}
      <OnDemandMenu
        position="bottom-end"
        withinPortal
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
            <menu.Label>{t('views.savedViews')}</menu.Label>
            {layouts.length === 0 ? <menu.Item disabled>{t('views.none')}</menu.Item> : null}
            {layouts.map((layout) => (
              <menu.Item key={layout.pathId} component={Link} to={href(layout)}>
                {layout.name}
              </menu.Item>
            ))}
            <menu.Divider />
            {current ? (
              <menu.Item
                leftSection={<IconDeviceFloppy size={14} aria-hidden />}
                onClick={() => {
                  dispatch(replaceLayout({ rootPath, layout: { ...current, ...state } }));
                  toast.success(t('views.updated', { name: current.name }));
                }}
              >
                {t('views.update')}
              </menu.Item>
            ) : null}
            <menu.Item
              leftSection={<IconDeviceFloppy size={14} aria-hidden />}
              onClick={() => {
                setName('');
                setNaming('save');
              }}
            >
              {t('views.saveAs')}
            </menu.Item>
            {current ? (
              <>
                <menu.Item
                  leftSection={<IconPencil size={14} aria-hidden />}
                  onClick={() => {
                    setName(current.name);
                    setNaming('rename');
                  }}
                >
                  {t('views.rename')}
                </menu.Item>
                <menu.Item
                  color="red"
                  leftSection={<IconTrash size={14} aria-hidden />}
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
        title={naming === 'rename' ? t('views.rename') : t('views.saveAs')}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
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
              <Button type="submit" disabled={!name.trim()}>
                {t('actions.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <ConfirmDelete
        opened={confirmDelete}
        title={t('views.delete')}
        onConfirm={() => {
          if (current) dispatch(removeLayout({ rootPath, customPath: current.customPath }));
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

import { allFields, type EntityDescription } from '@data-platform/shared/entities/entity';
import { ActionIcon, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconEye, IconEyeOff, IconGripVertical } from '@tabler/icons-react';
import { type DragEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldLabel } from './cell-value.tsx';
import classes from './column-chooser.module.css';
import { moveColumn } from './list-state.ts';

/** Fields never offered as columns. */
const notColumns = new Set(['version']);

type Side = 'shows' | 'hidden';

/**
 * "Displayed fields" and "Hidden fields" (the column chooser's dialog): drag a
 * field to reorder it or move it across; the buttons of each field do the
 * same from the keyboard.
 */
export function ColumnLists({
  entity,
  shows,
  onChange,
}: {
  entity: EntityDescription;
  shows: string[];
  onChange: (shows: string[]) => void;
}) {
  const { t } = useTranslation();
  const label = useFieldLabel(entity.name);
  const fields = allFields(entity);
  const hidden = Object.keys(fields).filter((name) => !notColumns.has(name) && !shows.includes(name));
  const [dragged, setDragged] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const ids = { shows: useId(), hidden: useId() };

  const move = (name: string, target: Side, index: number) => {
    const next = moveColumn(shows, hidden, name, target, index);
    if (next.shows.length === 0) return;
    onChange(next.shows);
    const fieldLabel = label(name, fields[name]);
    setAnnouncement(
      target === 'shows'
        ? t('columns.movedShown', { field: fieldLabel, position: index + 1 })
        : t('columns.movedHidden', { field: fieldLabel }),
    );
  };

  const dropOn = (target: Side, index: number) => (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const name = dragged ?? event.dataTransfer.getData('text/plain');
    setDragged(null);
    if (!name) return;
    const list = target === 'shows' ? shows : hidden;
    const from = list.indexOf(name);
    // Dropping below itself in the same list: the item leaves its place first.
    move(name, target, from >= 0 && from < index ? index - 1 : index);
  };

  const renderList = (side: Side) => {
    const list = side === 'shows' ? shows : hidden;
    return (
      <Paper
        withBorder
        p="xs"
        className={classes.list}
        onDragOver={(e) => e.preventDefault()}
        onDrop={dropOn(side, list.length)}
      >
        <Title order={3} size="h5" id={ids[side]} mb="xs">
          {side === 'shows' ? t('labels.displayedFields') : t('labels.hiddenFields')}
        </Title>
        <ul aria-labelledby={ids[side]} className={classes.items} data-testid={`columns-${side}`}>
          {list.map((name, index) => {
            const fieldLabel = label(name, fields[name]);
            return (
              <li
                key={name}
                draggable
                className={classes.item}
                data-dragging={dragged === name || undefined}
                onDragStart={(event) => {
                  setDragged(name);
                  event.dataTransfer.setData('text/plain', name);
                  event.dataTransfer.effectAllowed = 'move';
                }}
                onDragEnd={() => setDragged(null)}
                onDragOver={(event) => event.preventDefault()}
                onDrop={dropOn(side, index)}
              >
                <IconGripVertical size={16} aria-hidden className={classes.grip} />
                <Text size="sm" className={classes.name}>
                  {fieldLabel}
                </Text>
                {side === 'shows' ? (
                  <>
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      aria-label={t('columns.moveUp', { field: fieldLabel })}
                      disabled={index === 0}
                      onClick={() => move(name, side, index - 1)}
                    >
                      <IconArrowUp size={14} aria-hidden />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      aria-label={t('columns.moveDown', { field: fieldLabel })}
                      disabled={index === list.length - 1}
                      onClick={() => move(name, side, index + 1)}
                    >
                      <IconArrowDown size={14} aria-hidden />
                    </ActionIcon>
                  </>
                ) : null}
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  aria-label={
                    side === 'shows'
                      ? t('columns.hide', { field: fieldLabel })
                      : t('columns.show', { field: fieldLabel })
                  }
                  disabled={side === 'shows' && shows.length === 1}
                  onClick={() => move(name, side === 'shows' ? 'hidden' : 'shows', side === 'shows' ? 0 : shows.length)}
                >
                  {side === 'shows' ? <IconEyeOff size={14} aria-hidden /> : <IconEye size={14} aria-hidden />}
                </ActionIcon>
              </li>
            );
          })}
        </ul>
      </Paper>
    );
  };

  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {renderList('shows')}
        {renderList('hidden')}
      </SimpleGrid>
      <div aria-live="polite" className={classes.announce}>
        {announcement}
      </div>
    </>
  );
}

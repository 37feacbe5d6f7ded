import { Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type DragEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useListData } from '../../entity/list-data.ts';
import { useFormat } from '../../i18n/format.ts';
import classes from './board.module.css';
import { BoardCard, CARD_DRAG_TYPE } from './board-card.tsx';
import {
  arrangeColumns,
  type Card,
  type ColumnTotals,
  cardOf,
  columnFilter,
  type Moved,
  type Stage,
  settledMoves,
} from './board-logic.ts';

/** A card's slot: the card and the gap below it (fixed: the column places cards without measuring them). */
const SLOT_HEIGHT = 108;
const OVERSCAN = 4;
/** The next page is read when the last drawn card is this close to the last loaded. */
const LOAD_AHEAD = 10;

/** Where the board's focus is: a card of a column, moved there by the keys or a click. */
export interface BoardFocus {
  stage: Stage;
  id: number;
  /** Not 0 when the card must take the focus once drawn (moved to by the keys); a click's or Tab's focus is 0. */
  request: number;
}

export interface ColumnProps {
  stage: Stage;
  label: string;
  stages: readonly Stage[];
  /** The list's parameters of every column: filters, search, order, card fields, page size. */
  params: readonly [string, string][];
  totals: ColumnTotals | undefined;
  moved: ReadonlyMap<number, Moved>;
  mayMove: boolean;
  focus: BoardFocus | null;
  dragging: Card | null;
  hintId: string;
  hrefOf: (card: Card) => string;
  /** The cards as shown, for the keys' moves between columns. */
  onCards: (stage: Stage, cards: readonly Card[]) => void;
  onSettled: (ids: number[]) => void;
  onDragStart: (card: Card) => void;
  onDragEnd: () => void;
  onDrop: (stage: Stage) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>, card: Card) => void;
  onFocus: (card: Card) => void;
}

/**
 * One stage's column: its count and amounts per currency (the server's
 * totals of the whole filtered list), then its cards, read page by page as
 * the column is scrolled and drawn only where visible (TanStack Virtual).
 */
export function BoardColumn(props: ColumnProps) {
  const { stage, label, stages, params, totals, moved, focus, dragging, onCards, onSettled } = props;
  const { t } = useTranslation(['pipeline', 'common']);
  const format = useFormat();
  const headingId = useId();
  const query = useMemo((): [string, string][] => [...params, columnFilter(stage)], [params, stage]);
  const list = useListData('deals', query);
  const serverCards = useMemo(() => list.rows.map((row) => cardOf(row, stages)), [list.rows, stages]);
  const own = useMemo(() => new Map([[stage, serverCards]]), [stage, serverCards]);
  const cards = useMemo(() => arrangeColumns([stage], own, moved).get(stage) ?? [], [stage, own, moved]);

  useEffect(() => {
    onCards(stage, cards);
  }, [onCards, stage, cards]);
  useEffect(() => {
    const settled = settledMoves(own, moved);
    if (settled.length > 0) onSettled(settled);
  }, [own, moved, onSettled]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: cards.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => SLOT_HEIGHT,
    overscan: OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  const { loadMore } = list;
  useEffect(() => {
    if (cards.length > 0 && last >= cards.length - LOAD_AHEAD) loadMore();
  }, [last, cards.length, loadMore]);

  // A card the keys moved to (or moved here) takes the focus once drawn: scrolled to first when out of view.
  const focusedId = focus?.stage === stage ? focus.id : null;
  const focusedIndex = focusedId === null ? -1 : cards.findIndex((card) => card.id === focusedId);
  const served = useRef(0);
  useLayoutEffect(() => {
    if (!focus || focus.stage !== stage || focus.request === 0 || focus.request === served.current) return;
    if (focusedIndex < 0) return;
    const element = scrollRef.current?.querySelector<HTMLElement>(`[data-card-id="${focus.id}"]`);
    if (!element) {
      virtualizer.scrollToIndex(focusedIndex, { align: 'auto' });
      return;
    }
    served.current = focus.request;
    element.focus();
  });

  // The column's tab stop: the focused card when it is here, else the first.
  const tabStop = focusedIndex >= 0 ? focusedId : (cards[0]?.id ?? null);

  const [over, setOver] = useState(false);
  const accepts = (event: DragEvent) => dragging !== null && event.dataTransfer.types.includes(CARD_DRAG_TYPE);
  const dragOver = (event: DragEvent<HTMLElement>) => {
    if (!accepts(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    if (!over) setOver(true);
  };
  const drop = (event: DragEvent<HTMLElement>) => {
    setOver(false);
    if (!accepts(event)) return;
    event.preventDefault();
    props.onDrop(stage);
  };
  useEffect(() => {
    if (dragging === null) setOver(false);
  }, [dragging]);

  const count = totals?.count ?? 0;
  return (
    <section
      className={classes.column}
      aria-labelledby={headingId}
      data-testid="board-column"
      data-stage={stage ?? ''}
      data-drop-target={over || undefined}
      onDragOver={dragOver}
      onDragEnter={dragOver}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={drop}
    >
      <div className={classes.header}>
        <Group justify="space-between" gap={4} wrap="nowrap">
          <Title order={2} size="h6" id={headingId} className={classes.line}>
            {label}
          </Title>
          <Text size="xs" c="dimmed" data-testid="column-count" style={{ whiteSpace: 'nowrap' }}>
            {t('count', { count, formatted: format.number(count) })}
          </Text>
        </Group>
        <Text size="xs" data-testid="column-amounts" className={classes.amount}>
          {totals && totals.amounts.length > 0
            ? totals.amounts.map((money) => format.money(money)).join(' · ')
            : t('noAmount')}
        </Text>
      </div>
      <div ref={scrollRef} className={classes.scroller} data-testid="board-column-cards">
        <ul className={classes.cards} aria-labelledby={headingId} style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const card = cards[item.index] as Card;
            return (
              <li
                key={card.id}
                aria-setsize={Math.max(count, cards.length)}
                aria-posinset={item.index + 1}
                className={classes.item}
                style={{ height: SLOT_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <BoardCard
                  card={card}
                  href={props.hrefOf(card)}
                  tabbable={card.id === tabStop}
                  draggable={props.mayMove}
                  saving={moved.get(card.id)?.saving ?? false}
                  dragging={dragging?.id === card.id}
                  describedBy={props.hintId}
                  onDragStart={props.onDragStart}
                  onDragEnd={props.onDragEnd}
                  onKeyDown={props.onKeyDown}
                  onFocus={props.onFocus}
                />
              </li>
            );
          })}
        </ul>
        {list.loading ? (
          <Group justify="center" p="xs">
            <Loader size="xs" role="status" aria-label={t('loading')} />
          </Group>
        ) : null}
        {list.error !== null ? (
          <Stack gap={4} p="sm" align="flex-start">
            <Text size="sm" c="red">
              {list.error}
            </Text>
            <Button size="compact-xs" variant="light" onClick={list.retry}>
              {t('common:actions.retry')}
            </Button>
          </Stack>
        ) : null}
        {list.loaded && cards.length === 0 && list.error === null ? (
          <Text size="sm" c="dimmed" p="sm">
            {t('empty')}
          </Text>
        ) : null}
      </div>
    </section>
  );
}

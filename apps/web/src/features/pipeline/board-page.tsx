import { allFields } from '@data-platform/shared/entities/entity';
import { Alert, Loader, Stack, Text, VisuallyHidden } from '@mantine/core';
import { type KeyboardEvent, useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { can } from '../../entity/access.ts';
import { useEntity } from '../../entity/custom-fields.ts';
import { optionLabel } from '../../entity/field-widgets/widget.ts';
import { filterParams, knownFieldsView } from '../../entity/list-state.ts';
import { useUpdateRecordMutation } from '../../entity/record-api.ts';
import { recordPath } from '../../entity/record-routes.ts';
import { listPathOf } from '../../entity/resource-routes.ts';
import { useTotalsQuery } from '../../entity/totals-api.ts';
// The board is built of the list's parts (filters, view state, totals): with the list page itself among its modules,
// the bundler keeps the list's code in one chunk instead of cutting the parts out of it (measured: cut, the signed-in
// company list fetched 1.5 KB more gzip, its first screen budgeted; web-bundle.test.ts).
import '../../entity/list-page.tsx';
import { ViewStatusScreen } from '../../entity/view-not-found.tsx';
import { useLocalizedPath } from '../../i18n/use-localized-path.ts';
import { useAppDispatch, useAppSelector } from '../../store/hooks.ts';
import { isApiFailure } from '../../store/http.ts';
import { resourceApi } from '../../store/resource-slices.ts';
import classes from './board.module.css';
import { BoardColumn, type BoardFocus } from './board-column.tsx';
import {
  AMOUNT_FIELD,
  BOARD_FIELD,
  boardStages,
  CARD_PARAMS,
  type Card,
  columnTotals,
  isMove,
  type Moved,
  neighbourStage,
  type Stage,
} from './board-logic.ts';
import { BoardToolbar } from './board-toolbar.tsx';
import { useBoardView } from './use-board-view.ts';

const RESOURCE = 'deals';
/** Cards read per page of a column: a screenful and more, never a whole column of thousands at once. */
const PAGE_SIZE = '100';

/**
 * The deals as a board by stage (`/deals/board`): a column per option of the
 * stage picklist and one for deals without, with the list's filters, search,
 * order and saved views; a card dragged, or moved by Shift+arrows, to
 * another column changes the deal's stage, claiming the version the card
 * showed (a deal changed since is refused, said, and put back).
 */
export function BoardPage() {
  const { t } = useTranslation('pipeline');
  if (!useEntity(RESOURCE).ready) return <Loader size="sm" role="status" aria-label={t('loading')} />;
  return <LoadedBoard />;
}

function LoadedBoard() {
  const { t } = useTranslation(['pipeline', 'entities', 'options']);
  const { entity } = useEntity(RESOURCE);
  const rootPath = listPathOf(RESOURCE) ?? `/${RESOURCE}`;
  const localized = useLocalizedPath();
  const dispatch = useAppDispatch();
  const user = useAppSelector((state) => state.auth.currentUser?.user);
  const mayMove = can(user, RESOURCE, 'update');
  const { view, change, open, current, layouts, status } = useBoardView(rootPath);
  const fields = allFields(entity);
  const stages = useMemo(() => boardStages(fields[BOARD_FIELD]?.options), [fields]);
  const stageLabel = useCallback((stage: Stage) => (stage === null ? t('noStage') : optionLabel(t, stage)), [t]);

  // The same view rebuilt is the same request: keyed by its text.
  const known = knownFieldsView(view, fields);
  const filtered: [string, string][] = [
    ...filterParams(known.filters),
    ...(known.q ? [['q', known.q] as [string, string]] : []),
  ];
  const filteredKey = JSON.stringify(filtered);
  const params = useMemo(
    (): [string, string][] => [
      ...CARD_PARAMS,
      ...(JSON.parse(filteredKey) as [string, string][]),
      ...(known.sort ? [['sort', known.sort] as [string, string]] : []),
      ['pageSize', PAGE_SIZE],
    ],
    [filteredKey, known.sort],
  );
  const totalsQuery = useMemo(
    (): [string, string][] => [
      ...(JSON.parse(filteredKey) as [string, string][]),
      ['fields', AMOUNT_FIELD],
      ['groupBy', BOARD_FIELD],
    ],
    [filteredKey],
  );
  const totalsAnswer = useTotalsQuery(RESOURCE, totalsQuery);
  const totals = useMemo(() => columnTotals(stages, totalsAnswer.currentData), [stages, totalsAnswer.currentData]);

  const [moved, setMoved] = useState<ReadonlyMap<number, Moved>>(() => new Map());
  const [problem, setProblem] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focus, setFocus] = useState<BoardFocus | null>(null);
  const requests = useRef(0);
  const [dragging, setDragging] = useState<Card | null>(null);
  const shown = useRef(new Map<Stage, readonly Card[]>());
  const hintId = useId();
  const [update] = useUpdateRecordMutation(RESOURCE);

  const onCards = useCallback((stage: Stage, cards: readonly Card[]) => {
    shown.current.set(stage, cards);
  }, []);
  const onSettled = useCallback(
    (ids: number[]) =>
      setMoved((before) => {
        const next = new Map(before);
        for (const id of ids) next.delete(id);
        return next;
      }),
    [],
  );
  const focusCard = useCallback((stage: Stage, id: number) => {
    requests.current += 1;
    setFocus({ stage, id, request: requests.current });
  }, []);

  const move = useCallback(
    async (card: Card, to: Stage) => {
      if (!mayMove || !isMove(card, to)) return;
      const moving: Card = { ...card, stage: to };
      setProblem(null);
      setMoved((before) => new Map(before).set(card.id, { card: moving, saving: true }));
      setAnnouncement(t('moving', { name: card.name, stage: stageLabel(to) }));
      const result = await update({ id: card.id, version: card.version, body: { [BOARD_FIELD]: to } });
      if ('error' in result) {
        // Put back where the server has it; a stale card is read again with the deal's current state.
        setMoved((before) => {
          const next = new Map(before);
          next.delete(card.id);
          return next;
        });
        const failure = result.error;
        const stale = isApiFailure(failure) && failure.status === 412;
        const message = stale
          ? t('stale', { name: card.name, stage: stageLabel(card.stage) })
          : t('failed', { name: card.name, message: isApiFailure(failure) ? failure.message : String(failure) });
        setProblem(message);
        setAnnouncement(message);
        if (stale) dispatch(resourceApi(RESOURCE).util.invalidateTags(['List']));
        return;
      }
      const version = Number(result.data.version ?? card.version + 1);
      setMoved((before) => new Map(before).set(card.id, { card: { ...moving, version }, saving: false }));
      setAnnouncement(t('moved', { name: card.name, stage: stageLabel(to) }));
    },
    [mayMove, update, t, stageLabel, dispatch],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>, card: Card) => {
      const column = shown.current.get(card.stage) ?? [];
      const index = column.findIndex((c) => c.id === card.id);
      const key = event.key;
      if ((key === 'ArrowLeft' || key === 'ArrowRight') && event.shiftKey) {
        event.preventDefault();
        if (!mayMove) return;
        const to = neighbourStage(stages, card.stage, key === 'ArrowLeft' ? -1 : 1);
        if (to === undefined) {
          setAnnouncement(t(key === 'ArrowLeft' ? 'first' : 'last', { name: card.name }));
          return;
        }
        void move(card, to);
        focusCard(to, card.id);
        return;
      }
      if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return;
      if (key === 'ArrowDown' || key === 'ArrowUp' || key === 'Home' || key === 'End') {
        event.preventDefault();
        const target = key === 'Home' ? 0 : key === 'End' ? column.length - 1 : index + (key === 'ArrowDown' ? 1 : -1);
        const next = column[Math.max(0, Math.min(column.length - 1, target))];
        if (next) focusCard(card.stage, next.id);
        return;
      }
      if (key === 'ArrowLeft' || key === 'ArrowRight') {
        event.preventDefault();
        // The nearest column that way with cards, at the same place or its last card.
        const step = key === 'ArrowLeft' ? -1 : 1;
        for (let i = stages.indexOf(card.stage) + step; i >= 0 && i < stages.length; i += step) {
          const stage = stages[i] as Stage;
          const cards = shown.current.get(stage) ?? [];
          const next = cards[Math.min(index, cards.length - 1)];
          if (next) {
            focusCard(stage, next.id);
            return;
          }
        }
      }
    },
    [stages, mayMove, move, focusCard, t],
  );
  const onFocus = useCallback(
    (card: Card) =>
      setFocus((before) =>
        before?.id === card.id && before.stage === card.stage ? before : { stage: card.stage, id: card.id, request: 0 },
      ),
    [],
  );
  const onDrop = useCallback(
    (stage: Stage) => {
      if (dragging) void move(dragging, stage);
      setDragging(null);
    },
    [dragging, move],
  );
  const onDragEnd = useCallback(() => setDragging(null), []);
  const hrefOf = useCallback(
    (card: Card) => localized(recordPath(RESOURCE, card.id, 'show') ?? rootPath),
    [localized, rootPath],
  );

  if (status !== 'ready') {
    return <ViewStatusScreen status={status} rootPath={rootPath} plural={t(`entities:resources.${RESOURCE}.other`)} />;
  }
  return (
    <Stack gap="sm">
      <BoardToolbar
        entity={entity}
        rootPath={rootPath}
        view={view}
        current={current}
        layouts={layouts}
        total={totalsAnswer.currentData?.count ?? null}
        onChange={change}
        onOpen={open}
      />
      <Text size="xs" c="dimmed" id={hintId}>
        {t('keys')}
      </Text>
      {problem !== null ? (
        <Alert
          color="orange"
          role="alert"
          data-testid="board-problem"
          withCloseButton
          closeButtonLabel={t('dismiss')}
          onClose={() => setProblem(null)}
        >
          {problem}
        </Alert>
      ) : null}
      <VisuallyHidden aria-live="polite" data-testid="board-announcement">
        {announcement}
      </VisuallyHidden>
      <div className={classes.board} data-testid="deal-board">
        {stages.map((stage) => (
          <BoardColumn
            key={stage ?? ''}
            stage={stage}
            label={stageLabel(stage)}
            stages={stages}
            params={params}
            totals={totals.get(stage)}
            moved={moved}
            mayMove={mayMove}
            focus={focus}
            dragging={dragging}
            hintId={hintId}
            hrefOf={hrefOf}
            onCards={onCards}
            onSettled={onSettled}
            onDragStart={setDragging}
            onDragEnd={onDragEnd}
            onDrop={onDrop}
            onKeyDown={onKeyDown}
            onFocus={onFocus}
          />
        ))}
      </div>
    </Stack>
  );
}

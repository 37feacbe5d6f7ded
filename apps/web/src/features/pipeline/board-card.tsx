import type { DragEvent, KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../i18n/format.ts';
import classes from './board.module.css';
import type { Card } from './board-logic.ts';

/** The drag's data type: a deal's id, so that a drop from elsewhere (a link, a file) is not taken for one. */
export const CARD_DRAG_TYPE = 'application/x-data-platform-deal';

/**
 * One deal on the board: its name, first company (+N more), fund, amount
 * and owner; a link to its page, dragged to another column to change stage.
 */
export function BoardCard({
  card,
  href,
  tabbable,
  draggable,
  saving,
  dragging,
  describedBy,
  onDragStart,
  onDragEnd,
  onKeyDown,
  onFocus,
}: {
  card: Card;
  href: string;
  tabbable: boolean;
  draggable: boolean;
  saving: boolean;
  dragging: boolean;
  /** The keys' hint. */
  describedBy: string;
  onDragStart: (card: Card) => void;
  onDragEnd: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>, card: Card) => void;
  onFocus: (card: Card) => void;
}) {
  const { t } = useTranslation('pipeline');
  const format = useFormat();
  const start = (event: DragEvent<HTMLAnchorElement>) => {
    event.dataTransfer.setData(CARD_DRAG_TYPE, String(card.id));
    event.dataTransfer.effectAllowed = 'move';
    onDragStart(card);
  };
  return (
    <Link
      to={href}
      className={classes.card}
      data-card-id={card.id}
      data-testid="deal-card"
      tabIndex={tabbable ? 0 : -1}
      draggable={draggable}
      data-saving={saving || undefined}
      data-dragging={dragging || undefined}
      aria-busy={saving || undefined}
      aria-describedby={describedBy}
      onDragStart={draggable ? start : undefined}
      onDragEnd={onDragEnd}
      onKeyDown={(event) => onKeyDown(event, card)}
      onFocus={() => onFocus(card)}
    >
      <span className={classes.name}>{card.name}</span>
      <span className={classes.line}>
        {card.company ?? t('noCompany')}
        {card.moreCompanies > 0
          ? ` ${t('moreCompanies', { count: card.moreCompanies, formatted: format.number(card.moreCompanies) })}`
          : ''}
      </span>
      <span className={classes.dimmed}>{card.fund ? t('fund', { name: card.fund }) : t('noFund')}</span>
      <span className={classes.split}>
        <span className={classes.dimmed}>{card.owner ? t('owner', { name: card.owner }) : t('noOwner')}</span>
        <span className={classes.amount}>{card.amount ? format.money(card.amount) : ''}</span>
      </span>
    </Link>
  );
}

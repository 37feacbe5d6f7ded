import { type FieldDescription, fieldTypeModule, type WidgetName } from '@data-platform/shared/fields/field-types';
import { booleanWidget } from './boolean.tsx';
import { currencyWidget } from './currency.tsx';
import { datetimeWidget, dateWidget } from './date.tsx';
import { listWidget } from './list.tsx';
import { longTextWidget } from './long-text.tsx';
import { moneyWidget } from './money.tsx';
import { amountWidget, numberWidget } from './number.tsx';
import { phoneWidget } from './phone.tsx';
import { ratingWidget } from './rating.tsx';
import { referenceWidget } from './reference.tsx';
import { multiSelectWidget, selectWidget } from './select.tsx';
import { emailWidget, textWidget, urlWidget } from './text.tsx';
import type { FieldWidget } from './widget.ts';

/**
 * The web app's widgets by name. Field types name theirs in their module
 * (packages/shared/src/fields/types/); several types share one look (every
 * number), so the registry is keyed by widget, not by type (docs/decisions/0013).
 */
const widgets: Record<WidgetName, FieldWidget> = {
  text: textWidget,
  longText: longTextWidget,
  email: emailWidget,
  url: urlWidget,
  phone: phoneWidget,
  number: numberWidget,
  amount: amountWidget,
  money: moneyWidget,
  currency: currencyWidget,
  date: dateWidget,
  datetime: datetimeWidget,
  boolean: booleanWidget,
  select: selectWidget,
  multiSelect: multiSelectWidget,
  list: listWidget,
  reference: referenceWidget,
  rating: ratingWidget,
};

/** The widget that shows and edits a field's values. */
export function fieldWidget(field: FieldDescription): FieldWidget {
  return widgets[fieldTypeModule(field.type).widget.name];
}

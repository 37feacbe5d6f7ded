import { type RefObject, useLayoutEffect } from 'react';

const FIELD = 'input:not([type="hidden"]):not([disabled]), textarea:not([disabled])';

/**
 * In a dialog, the form's first field takes the focus, not the dialog's Close
 * button (typing a name there closed the dialog at the first space). Mantine's
 * focus trap focuses the element marked `data-autofocus` when the dialog opens;
 * a form drawn after that (an edit loading its record) takes the focus itself.
 * Outside dialogs (an edit page) nothing moves.
 */
export function useFirstFieldFocus(container: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const dialog = container.current?.closest('[role="dialog"]');
    const first = dialog ? container.current?.querySelector<HTMLElement>(FIELD) : null;
    if (!dialog || !first) return;
    first.setAttribute('data-autofocus', '');
    const active = document.activeElement;
    if (active && dialog.contains(active) && !container.current?.contains(active)) first.focus({ preventScroll: true });
  }, [container]);
}

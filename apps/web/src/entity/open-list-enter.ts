import type { KeyboardEvent } from 'react';

/**
 * A record form's `onKeyDown`: Enter in one of its picklists while the list
 * is open and no option is highlighted (the list opened by a click, or text
 * typed that matches several options) picks nothing and submits nothing.
 * Mantine's combobox prevents Enter's default only when an option is
 * highlighted, so the form was submitted: a record created or saved while its
 * user was still choosing.
 *
 * The form hears the key after its controls' own handlers: a control that
 * used it has prevented its default already (an option picked, a tag typed
 * into a tags field added), and is left alone. With an option highlighted,
 * Enter picks it, as before.
 */
export function keepEnterInOpenList(event: KeyboardEvent<HTMLFormElement>): void {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing || event.nativeEvent.defaultPrevented) return;
  const target = event.target;
  if (!(target instanceof HTMLInputElement) || target.getAttribute('aria-expanded') !== 'true') return;
  const list = target.ownerDocument.getElementById(target.getAttribute('aria-controls') ?? '');
  if (list && !list.querySelector('[data-combobox-selected]')) event.preventDefault();
}

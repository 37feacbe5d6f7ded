/**
 * Enter in a picklist while its list is open and no option is highlighted
 * (the list opened by a click, or text typed that matches several options)
 * picks nothing and submits nothing. Mantine's combobox prevents Enter's
 * default only when an option is highlighted, so the form around it was
 * submitted: a record created or saved while its user was still choosing.
 *
 * Listened to as the key bubbles out of the page, after the controls' own
 * handlers: a control that used the key has prevented its default already
 * (an option picked, a tag typed into a tags field added), and is left alone.
 * A handler that stopped the key on its way (a grid's cell editor saves on
 * Enter) keeps it too. With an option highlighted, Enter picks it, as before.
 */
export function keepEnterInOpenLists(root: Document): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || event.isComposing || event.defaultPrevented) return;
    const target = event.target;
    if (!(target instanceof HTMLInputElement)) return;
    if (target.getAttribute('aria-expanded') !== 'true') return;
    const list = root.getElementById(target.getAttribute('aria-controls') ?? '');
    if (list && !list.querySelector('[data-combobox-selected]')) event.preventDefault();
  };
  root.addEventListener('keydown', onKeyDown);
  return () => root.removeEventListener('keydown', onKeyDown);
}

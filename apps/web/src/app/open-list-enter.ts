/**
 * Enter in a picklist while its list is open and no option is highlighted
 * (the list opened by a click, or text typed that matches several options)
 * picks nothing and submits nothing. Mantine's combobox prevents Enter's
 * default only when an option is highlighted, so the form around it was
 * submitted: a record created or saved while its user was still choosing.
 * The default prevented, a cell editor leaves the key alone too
 * (cell-editor.tsx). With an option highlighted, Enter picks it, as before.
 */
export function keepEnterInOpenLists(root: Document): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || event.isComposing) return;
    const target = event.target;
    if (!(target instanceof HTMLInputElement)) return;
    if (target.getAttribute('aria-expanded') !== 'true') return;
    const list = root.getElementById(target.getAttribute('aria-controls') ?? '');
    if (list && !list.querySelector('[data-combobox-selected]')) event.preventDefault();
  };
  root.addEventListener('keydown', onKeyDown, true);
  return () => root.removeEventListener('keydown', onKeyDown, true);
}

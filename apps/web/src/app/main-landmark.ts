import { createContext, useContext } from 'react';

/**
 * True inside a layout that already draws the page's `<main id="main">` (the
 * shell, the public layout): a page shown there, such as the error page of a
 * signed-in route, must not draw a second one.
 */
export const InsideMain = createContext(false);

export function useInsideMain(): boolean {
  return useContext(InsideMain);
}

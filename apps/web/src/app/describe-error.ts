import { isRouteErrorResponse } from 'react-router';

/** What the error page says, as translation keys of `errors` or a text to show as it is. */
export interface ErrorDescription {
  heading: 'notFoundHeading' | 'errorHeading' | 'oopsHeading';
  text: { key: 'notFound' | 'unexpected' } | { literal: string };
}

/**
 * A routing error 404 says the page is missing; another routing error says
 * its status text; anything else that was thrown says "Oops!".
 */
export function describeError(error: unknown): ErrorDescription {
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return { heading: 'notFoundHeading', text: { key: 'notFound' } };
    return { heading: 'errorHeading', text: error.statusText ? { literal: error.statusText } : { key: 'unexpected' } };
  }
  return { heading: 'oopsHeading', text: { key: 'unexpected' } };
}

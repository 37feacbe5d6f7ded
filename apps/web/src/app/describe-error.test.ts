import { data, isRouteErrorResponse, UNSAFE_ErrorResponseImpl } from 'react-router';
import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error.ts';

// What a loader's `throw data(null, { status })` becomes once the router has caught it.
async function routingError(status: number, statusText?: string): Promise<unknown> {
  const { createMemoryRouter } = await import('react-router');
  const router = createMemoryRouter([
    {
      path: '/',
      loader: () => {
        throw data(null, { status, statusText });
      },
    },
  ]);
  await router.initialize();
  await new Promise((resolve) => setTimeout(resolve, 0));
  const error = Object.values(router.state.errors ?? {})[0];
  router.dispose();
  return error;
}

describe('the error page says', () => {
  it('404 and that the page could not be found, for a routing 404', async () => {
    const error = await routingError(404);
    expect(isRouteErrorResponse(error)).toBe(true);
    expect(describeError(error)).toEqual({ heading: 'notFoundHeading', text: { key: 'notFound' } });
  });

  it('Error and the status text, for another routing error', async () => {
    expect(describeError(await routingError(403, 'Forbidden'))).toEqual({
      heading: 'errorHeading',
      text: { literal: 'Forbidden' },
    });
  });

  it('Error and that something unexpected happened, for a routing error without status text', async () => {
    // The router fills in the usual status texts, so an empty one is built directly.
    const error = new UNSAFE_ErrorResponseImpl(599, '', null);
    expect(isRouteErrorResponse(error)).toBe(true);
    expect(describeError(error)).toEqual({ heading: 'errorHeading', text: { key: 'unexpected' } });
  });

  it('Oops! for anything else thrown', () => {
    expect(describeError(new TypeError('x is undefined'))).toEqual({
      heading: 'oopsHeading',
      text: { key: 'unexpected' },
    });
    expect(describeError('a string')).toEqual({ heading: 'oopsHeading', text: { key: 'unexpected' } });
  });
});

import { createAction, type Dispatch } from '@reduxjs/toolkit';

/**
 * Records of `resource` were written on the server (created, changed,
 * deleted, imported): store/invalidation.ts reads again what shows them.
 */
export const recordsWritten = createAction<{ resource: string }>('data/recordsWritten');

/**
 * The `onQueryStarted` of a mutation that writes records of `resource`: once
 * the server has answered yes, it says so (a refused write changed nothing).
 */
export const announcesWrite =
  (resource: string) =>
  async (_arg: unknown, { dispatch, queryFulfilled }: { dispatch: Dispatch; queryFulfilled: Promise<unknown> }) => {
    try {
      await queryFulfilled;
      dispatch(recordsWritten({ resource }));
    } catch {
      // Refused or failed: nothing to read again.
    }
  };

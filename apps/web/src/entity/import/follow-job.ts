import type { ImportJob } from '@data-platform/shared/imports';
import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../store/hooks.ts';
import { isResourceArea, resourceApi } from '../../store/resource-slices.ts';
import { recordsWritten } from '../../store/written.ts';
import { type Failure, useFailure } from './failure.tsx';
import {
  useCancelImportMutation,
  useDownloadBadRowsMutation,
  useImportJobQuery,
  useUndoImportMutation,
} from './import-api.ts';
import { isGoing } from './wizard-logic.ts';

/** How often a job that is still going is read again. */
const POLL_MS = 1000;

export interface FollowedJob {
  job: ImportJob | undefined;
  going: boolean;
  failure: Failure | null;
  actionFailure: Failure | null;
  cancel: () => void;
  cancelling: boolean;
  /** Cancel was asked here and accepted: the job stops after its batch (all or nothing then takes back what it wrote). */
  cancelAsked: boolean;
  undo: () => void;
  undoing: boolean;
  download: () => void;
  downloading: boolean;
}

/**
 * A job followed until it ends (read again every second while it goes), with
 * its actions; each time it is seen ended (done, or undone), the lists of its
 * entity and what shows them are read again.
 */
export function useFollowedJob(resource: string, jobId: number | null): FollowedJob {
  const dispatch = useAppDispatch();
  const toFailure = useFailure();
  const [going, setGoing] = useState(true);
  const query = useImportJobQuery(jobId ?? skipToken, { pollingInterval: going ? POLL_MS : 0 });
  const [cancelJob, { isLoading: cancelling }] = useCancelImportMutation();
  const [undoJob, { isLoading: undoing }] = useUndoImportMutation();
  const [downloadBadRows, { isLoading: downloading }] = useDownloadBadRowsMutation();
  const [actionFailure, setActionFailure] = useState<Failure | null>(null);
  const [cancelAsked, setCancelAsked] = useState(false);
  const job = query.data;
  const status = job?.status;
  const seen = useRef<string | undefined>(undefined);

  useEffect(() => {
    if (!status || status === seen.current) return;
    const now = isGoing(status);
    setGoing(now);
    // Ended (a short job may have ended before its first reading): what shows its records is read again.
    if (!now) {
      const entity = job?.entity ?? resource;
      if (isResourceArea(entity)) dispatch(resourceApi(entity).util.invalidateTags(['List', 'Record']));
      dispatch(recordsWritten({ resource: entity }));
    }
    seen.current = status;
  }, [status, job?.entity, resource, dispatch]);

  const act = (action: (id: number) => Promise<{ error?: unknown }>, done?: () => void) => () => {
    if (jobId === null) return;
    setActionFailure(null);
    void action(jobId).then((answer) => {
      if ('error' in answer && answer.error !== undefined) setActionFailure(toFailure(answer.error));
      else {
        setGoing(true);
        done?.();
      }
    });
  };

  return {
    job,
    going: job ? isGoing(job.status) : true,
    failure: query.error ? toFailure(query.error) : null,
    actionFailure,
    cancel: act(
      (id) => cancelJob(id),
      () => setCancelAsked(true),
    ),
    cancelling,
    cancelAsked,
    undo: act((id) => undoJob(id)),
    undoing,
    download: () => {
      if (jobId === null) return;
      setActionFailure(null);
      void downloadBadRows(jobId).then((answer) => {
        if ('error' in answer) setActionFailure(toFailure(answer.error));
      });
    },
    downloading,
  };
}

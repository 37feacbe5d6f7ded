import { Alert, Stack, Text } from '@mantine/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApiFailure, isApiFailure } from '../../store/http.ts';

/** A refusal as the wizard shows it: the server's message and, per field, what is wrong. */
export type Failure = Pick<ApiFailure, 'message' | 'fields'>;

/** A failure as the wizard shows it: the server's words, or that it could not be reached. */
export function useFailure() {
  const { t } = useTranslation('transfer');
  return useCallback(
    (error: unknown): Failure =>
      isApiFailure(error) && error.status !== 0
        ? { message: error.message, fields: error.fields }
        : { message: t('wizard.unreachable') },
    [t],
  );
}

export function FailureAlert({ failure }: { failure: Failure | null }) {
  if (!failure) return null;
  const fields = Object.entries(failure.fields ?? {});
  return (
    <Alert color="red" role="alert" title={failure.message}>
      {fields.length > 0 ? (
        <Stack gap={2}>
          {fields.map(([where, message]) => (
            <Text key={where} size="sm">
              {where}: {message}
            </Text>
          ))}
        </Stack>
      ) : null}
    </Alert>
  );
}

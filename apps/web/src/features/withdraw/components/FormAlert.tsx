import { Alert } from '@mantine/core';
import { ApiError } from '../../../lib/api.ts';

/** The server's refusal (code 0) in its own localized words; other failures were already shown. */
export function refusalOf(error: unknown): string | null {
  return error instanceof ApiError && error.kind === 'refused' ? error.message : null;
}

export function FormAlert({ error, testId }: { error: unknown; testId: string }) {
  const message = refusalOf(error);
  if (!message) return null;
  return (
    <Alert color="yellow" variant="light" role="alert" data-testid={testId}>
      {message}
    </Alert>
  );
}

import { Alert } from '@mantine/core';
import { ApiError } from '../../../lib/api.ts';

/**
 * The server's refusal (code 0), in its own localized words, shown as a warning on the form.
 * Other failures were already shown by the API client, so nothing is repeated here.
 */
export function refusalOf(error: unknown): string | null {
  return error instanceof ApiError && error.kind === 'refused' ? error.message : null;
}

export function FormAlert({ message, testId }: { message: string | null; testId: string }) {
  if (!message) return null;
  return (
    <Alert color="yellow" variant="light" role="alert" data-testid={testId}>
      {message}
    </Alert>
  );
}

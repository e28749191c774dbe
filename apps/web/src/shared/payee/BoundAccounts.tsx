import { Alert, Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api.ts';

/**
 * The parts /bank and /wallet (and their add pages) share: a bound payee account is listed masked
 * with a delete button, and bound through a form whose server refusal shows above the fields.
 */

/** The server's localized refusal of a mutation, or null for anything else. */
function refusalOf(error: unknown): string | null {
  return error instanceof ApiError && error.kind === 'refused' ? error.message : null;
}

/** One bound account: its masked details (`children`) and a delete button behind a confirm. */
export function BoundItem({
  testId,
  deleting,
  onDelete,
  children,
}: {
  testId: string;
  deleting: boolean;
  /** Called once the customer has confirmed. */
  onDelete: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('withdraw');
  return (
    <Paper withBorder radius="lg" p="md" data-testid={testId}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>{children}</Stack>
        <Button
          variant="subtle"
          color="red"
          size="compact-sm"
          loading={deleting}
          onClick={() => {
            if (window.confirm(t('common.deleteConfirm'))) onDelete();
          }}
        >
          {t('common.delete')}
        </Button>
      </Group>
    </Paper>
  );
}

/** A page listing bound accounts (`list` undefined while loading), with an add button. */
export function BoundListPage<T extends { id: string }>({
  testId,
  title,
  intro,
  addTo,
  addLabel,
  addTestId,
  list,
  emptyText,
  emptyTestId,
  listTestId,
  renderItem,
}: {
  testId: string;
  title: string;
  intro: string;
  addTo: string;
  addLabel: string;
  addTestId: string;
  list: readonly T[] | undefined;
  emptyText: string;
  emptyTestId?: string;
  listTestId?: string;
  renderItem: (item: T) => ReactNode;
}) {
  return (
    <Stack gap="lg" py={{ base: 'md', sm: 40 }} maw={960} mx="auto" w="100%" data-testid={testId}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {intro}
          </Text>
        </Stack>
        <Button component={Link} to={addTo} data-testid={addTestId}>
          {addLabel}
        </Button>
      </Group>
      {!list ? (
        <Group justify="center" py="xl">
          <Loader size="sm" />
        </Group>
      ) : list.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl" data-testid={emptyTestId}>
          {emptyText}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} data-testid={listTestId}>
          {list.map(renderItem)}
        </SimpleGrid>
      )}
    </Stack>
  );
}

/** The scaffold of an add page: heading, card, refusal, the fields (`children`), cancel and save. */
export function BoundAddPage({
  testId,
  maw,
  title,
  subtitle,
  onSubmit,
  error,
  errorTestId,
  cancelTo,
  submitting,
  submitTestId,
  children,
}: {
  testId: string;
  maw: number;
  title: string;
  subtitle?: string;
  onSubmit: (event: FormEvent) => void;
  /** The mutation's error; only a refusal is shown. */
  error: unknown;
  errorTestId?: string;
  cancelTo: string;
  submitting: boolean;
  submitTestId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('withdraw');
  const refusal = refusalOf(error);
  const heading = (
    <Title order={1} size="h2">
      {title}
    </Title>
  );
  return (
    <Stack gap="lg" py={{ base: 'md', sm: 40 }} maw={maw} mx="auto" w="100%" data-testid={testId}>
      {subtitle === undefined ? (
        heading
      ) : (
        <Stack gap={4}>
          {heading}
          <Text c="dimmed" size="sm">
            {subtitle}
          </Text>
        </Stack>
      )}
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            {refusal ? (
              <Alert color="yellow" variant="light" role="alert" data-testid={errorTestId}>
                {refusal}
              </Alert>
            ) : null}
            {children}
            <Group justify="flex-end">
              <Button component={Link} to={cancelTo} variant="default">
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={submitting} data-testid={submitTestId}>
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

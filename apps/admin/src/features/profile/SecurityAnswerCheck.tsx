import type { CheckSecurityAnswerData } from '@bourse/protocol';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { ErrorNote } from '../../app/ui.tsx';

const QUESTIONS = ['1', '2', '3'] as const;

/**
 * Support's check of a caller's security answer (`POST admin/checkSecurityAnswer`,
 * `customers.verify`): the server answers match / no match only, audits each check with the reason
 * and allows 5 per customer an hour. It grants nothing: an additional check beside others.
 */
export function SecurityAnswerCheck({ customerId }: { customerId: string }) {
  const { t } = useTranslation('profile');
  const [question, setQuestion] = useState<(typeof QUESTIONS)[number]>('1');
  const [answer, setAnswer] = useState('');
  const [reason, setReason] = useState('');
  const check = useMutation({
    mutationFn: () =>
      api.post<CheckSecurityAnswerData>('checkSecurityAnswer', {
        customer_id: customerId,
        question,
        answer,
        reason,
      }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    check.mutate();
  };
  return (
    <Card withBorder data-testid="security-answer-check">
      <Title order={4} mb="xs">
        {t('admin.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('admin.intro')}
      </Text>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <SegmentedControl
            value={question}
            onChange={(value) => {
              const next = QUESTIONS.find((q) => q === value);
              if (next) setQuestion(next);
              check.reset();
            }}
            data={QUESTIONS.map((q) => ({ value: q, label: t(`questions.q${q}`) }))}
            aria-label={t('admin.question')}
            orientation="vertical"
          />
          <TextInput
            label={t('admin.answer')}
            value={answer}
            onChange={(event) => setAnswer(event.currentTarget.value)}
            autoComplete="off"
            data-testid="security-answer-input"
          />
          <TextInput
            label={t('admin.reason')}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            data-testid="security-answer-reason"
          />
          <ErrorNote error={check.error} />
          {check.data ? (
            <Alert
              variant="light"
              color={check.data.match ? 'green' : 'red'}
              data-testid="security-answer-result"
            >
              <Group gap="sm">
                <Badge color={check.data.match ? 'green' : 'red'}>
                  {check.data.match ? t('admin.match') : t('admin.noMatch')}
                </Badge>
                <Text size="sm">{t('admin.left', { n: check.data.checks_left })}</Text>
              </Group>
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" loading={check.isPending} data-testid="security-answer-submit">
              {t('admin.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

import { PROFILE_LIMITS } from '@bourse/protocol';
import { Alert, Button, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalOf, useSetQuestions } from '../api.ts';

const QUESTIONS = ['q1', 'q2', 'q3'] as const;

/** The app's own check: the server's normalisation (NFKC, trimmed, spaces collapsed) and length. */
function answerLength(raw: string): number {
  return [...raw.normalize('NFKC').trim().replace(/\s+/gu, ' ')].length;
}

/** Set or change all three answers, confirmed with the login password. */
export function QuestionsModal({
  opened,
  isSet,
  onClose,
}: {
  opened: boolean;
  isSet: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('profile');
  const phone = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  const save = useSetQuestions();
  const [answers, setAnswers] = useState<[string, string, string]>(['', '', '']);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<number, boolean>>({});
  const { answerMin: min, answerMax: max } = PROFILE_LIMITS;

  const close = () => {
    setAnswers(['', '', '']);
    setPassword('');
    setErrors({});
    save.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<number, boolean> = {};
    answers.forEach((a, i) => {
      const length = answerLength(a);
      if (length < min || length > max) found[i] = true;
    });
    if (password === '') found[3] = true;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate({ password, answer1: answers[0], answer2: answers[1], answer3: answers[2] });
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('questions.title')}
      fullScreen={phone}
      size="lg"
      radius="lg"
      data-testid="questions-modal"
    >
      {save.isSuccess ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" role="status" data-testid="questions-done">
            {t('questions.done')}
          </Alert>
          <Button onClick={close} variant="light">
            {t('verify.toCentre')}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {t('questions.intro')}
            </Text>
            {refusalOf(save.error) ? (
              <Alert color="yellow" variant="light" role="alert" data-testid="questions-error">
                {refusalOf(save.error)}
              </Alert>
            ) : null}
            {QUESTIONS.map((q, i) => (
              <TextInput
                key={q}
                label={t(`questions.${q}`)}
                description={i === 0 ? t('questions.hint', { min, max }) : undefined}
                value={answers[i]}
                maxLength={max * 2}
                autoComplete="off"
                error={errors[i] ? t('questions.hint', { min, max }) : undefined}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setAnswers((current) => {
                    const next: [string, string, string] = [...current];
                    next[i] = value;
                    return next;
                  });
                  setErrors((current) => ({ ...current, [i]: false }));
                }}
                data-testid={`questions-answer${i + 1}`}
              />
            ))}
            <PasswordInput
              label={t('questions.password')}
              autoComplete="current-password"
              value={password}
              error={errors[3] ? t('questions.password') : undefined}
              onChange={(event) => {
                setPassword(event.currentTarget.value);
                setErrors((current) => ({ ...current, 3: false }));
              }}
              data-testid="questions-password"
            />
            <Button type="submit" loading={save.isPending} data-testid="questions-submit">
              {isSet ? t('questions.change') : t('questions.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

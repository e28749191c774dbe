import { PROFILE_LIMITS } from '@bourse/protocol';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalOf, useSetPhrase } from '../api.ts';

/** Set, change or remove the anti-phishing phrase, confirmed with the login password. */
export function PhraseModal({
  opened,
  current,
  onClose,
}: {
  opened: boolean;
  current: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('profile');
  const phone = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  const save = useSetPhrase();
  const [phrase, setPhrase] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ phrase?: boolean; password?: boolean }>({});
  const { phraseMin: min, phraseMax: max } = PROFILE_LIMITS;

  const close = () => {
    setPhrase('');
    setPassword('');
    setErrors({});
    save.reset();
    onClose();
  };

  const send = (value: string) => {
    const length = [...value.normalize('NFKC').trim()].length;
    const found = {
      phrase: value !== '' && (length < min || length > max),
      password: password === '',
    };
    setErrors(found);
    if (found.phrase || found.password) return;
    save.mutate({ password, phrase: value });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (phrase.trim() === '') {
      setErrors({ phrase: true });
      return;
    }
    send(phrase);
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('phrase.title')}
      fullScreen={phone}
      size="lg"
      radius="lg"
      data-testid="phrase-modal"
    >
      {save.isSuccess ? (
        <Stack gap="md">
          <Alert color="teal" variant="light" role="status" data-testid="phrase-done">
            {save.data.phrase ? t('phrase.done') : t('phrase.removed')}
          </Alert>
          <Button onClick={close} variant="light">
            {t('verify.toCentre')}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {t('phrase.intro')}
            </Text>
            {current ? (
              <Text size="sm" fw={600} data-testid="phrase-current">
                {t('phrase.current')} <span translate="no">{current}</span>
              </Text>
            ) : null}
            {refusalOf(save.error) ? (
              <Alert color="yellow" variant="light" role="alert" data-testid="phrase-error">
                {refusalOf(save.error)}
              </Alert>
            ) : null}
            <TextInput
              label={t('phrase.label')}
              description={t('phrase.rule', { min, max })}
              value={phrase}
              maxLength={max * 2}
              autoComplete="off"
              error={errors.phrase ? t('phrase.rule', { min, max }) : undefined}
              onChange={(event) => {
                setPhrase(event.currentTarget.value);
                setErrors((e) => ({ ...e, phrase: false }));
              }}
              data-testid="phrase-input"
            />
            <PasswordInput
              label={t('phrase.password')}
              autoComplete="current-password"
              value={password}
              error={errors.password ? t('phrase.password') : undefined}
              onChange={(event) => {
                setPassword(event.currentTarget.value);
                setErrors((e) => ({ ...e, password: false }));
              }}
              data-testid="phrase-password"
            />
            <Group grow>
              <Button type="submit" loading={save.isPending} data-testid="phrase-submit">
                {current ? t('phrase.change') : t('phrase.submit')}
              </Button>
            </Group>
            {current ? (
              <Button
                variant="subtle"
                color="red"
                onClick={() => send('')}
                disabled={save.isPending}
                data-testid="phrase-remove"
              >
                {t('phrase.remove')}
              </Button>
            ) : null}
          </Stack>
        </form>
      )}
    </Modal>
  );
}

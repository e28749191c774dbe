import {
  Box,
  Button,
  Center,
  Code,
  Group,
  Paper,
  PasswordInput,
  PinInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { api, staffToken } from '../../app/api.ts';
import { LangSwitch } from '../../app/Layout.tsx';
import { useStaffToken } from '../../app/session.ts';
import { ErrorNote } from '../../app/ui.tsx';

type Step1 =
  | { stage: 'totp'; ticket: string }
  | { stage: 'enrol'; ticket: string; secret: string; otpauth_uri: string };

/** Staff login: email and password, then the authenticator code (first login: enrolment). */
export default function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useStaffToken();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<Step1 | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  if (token && !step) return <Navigate to="/" replace />;

  async function submitPassword(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setStep(await api.post<Step1>('staffLogin', { email, password }));
      setPassword('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function submitCode(e?: FormEvent) {
    e?.preventDefault();
    if (!step) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api.post<{ token: string }>('staffLoginCode', { ticket: step.ticket, code });
      queryClient.clear();
      staffToken.set(answer.token);
      setStep(null);
      navigate('/', { replace: true });
    } catch (err) {
      setError(err);
      setCode('');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={460}>
        <Stack>
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Box>
              <Title order={2}>{t('login.title')}</Title>
              <Text c="dimmed" size="sm">
                {t('title')} · {t('login.subtitle')}
              </Text>
            </Box>
          </Group>
          <LangSwitch />
          {!step ? (
            <form onSubmit={submitPassword}>
              <Stack>
                <TextInput
                  label={t('login.email')}
                  type="email"
                  autoComplete="username"
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  required
                  data-testid="login-email"
                />
                <PasswordInput
                  label={t('login.password')}
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                  required
                  data-testid="login-password"
                />
                <ErrorNote error={error} />
                <Button type="submit" loading={busy} data-testid="login-next">
                  {t('login.next')}
                </Button>
              </Stack>
            </form>
          ) : (
            <form onSubmit={submitCode}>
              <Stack>
                {step.stage === 'enrol' ? (
                  <Stack gap="xs" data-testid="enrol">
                    <Title order={4}>{t('login.enrolTitle')}</Title>
                    <Text size="sm">{t('login.enrolIntro')}</Text>
                    <Text size="sm" fw={600}>
                      {t('login.secret')}
                    </Text>
                    <Code block data-testid="enrol-secret" style={{ wordBreak: 'break-all', fontSize: 16 }}>
                      {step.secret}
                    </Code>
                    <Text size="sm" fw={600}>
                      {t('login.uri')}
                    </Text>
                    <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                      {step.otpauth_uri}
                    </Code>
                  </Stack>
                ) : null}
                <Stack gap={4}>
                  <Text size="sm" fw={500}>
                    {t('login.code')}
                  </Text>
                  <PinInput
                    length={6}
                    type="number"
                    oneTimeCode
                    value={code}
                    onChange={setCode}
                    aria-label={t('login.code')}
                    data-testid="login-code"
                  />
                  <Text size="xs" c="dimmed">
                    {t('login.codeHint')}
                  </Text>
                </Stack>
                <ErrorNote error={error} />
                <Group justify="space-between">
                  <Button
                    variant="subtle"
                    onClick={() => {
                      setStep(null);
                      setCode('');
                      setError(null);
                    }}
                  >
                    {t('login.back')}
                  </Button>
                  <Button
                    type="submit"
                    loading={busy}
                    disabled={code.length !== 6}
                    data-testid="login-submit"
                  >
                    {step.stage === 'enrol' ? t('login.enrolSubmit') : t('login.submit')}
                  </Button>
                </Group>
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}

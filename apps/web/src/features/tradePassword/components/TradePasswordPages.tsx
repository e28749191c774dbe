import {
  Alert,
  Anchor,
  Box,
  Button,
  Code,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import {
  useBindTrade,
  useEditTrade,
  useGoogleDisable,
  useGoogleEnable,
  useGoogleSecret,
  useTradeStatus,
} from '../api.ts';

const SIX_DIGITS = /^\d{6}$/;

function refusal(error: unknown): string | null {
  return error instanceof ApiError && error.kind === 'refused' ? error.message : null;
}

function Frame({
  title,
  intro,
  children,
  testId,
}: {
  title: string;
  intro: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <Box maw={520} mx="auto" w="100%" py={{ base: 'md', sm: 48 }} data-testid={testId}>
      <Paper radius="lg" p={{ base: 'md', sm: 32 }} withBorder>
        <Stack gap={4} mb="lg">
          <Title order={1} size="h2">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {intro}
          </Text>
        </Stack>
        {children}
      </Paper>
    </Box>
  );
}

function Digits(props: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
  testId: string;
}) {
  return (
    <PasswordInput
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
      inputMode="numeric"
      maxLength={6}
      autoComplete="off"
      error={props.error}
      data-testid={props.testId}
    />
  );
}

function Done({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation('withdraw');
  return (
    <Stack gap="md">
      <Alert color="teal" variant="light" role="status" data-testid={testId}>
        {text}
      </Alert>
      <Button component={Link} to="/tbjl" variant="light">
        {t('sheet.records')}
      </Button>
    </Stack>
  );
}

type PairErrors = { password?: string; password2?: string; other?: string };

function checkPair(
  password: string,
  password2: string,
  t: (k: 'trade.errors.format' | 'trade.errors.mismatch') => string,
) {
  const e: PairErrors = {};
  if (!SIX_DIGITS.test(password)) e.password = t('trade.errors.format');
  if (password !== password2) e.password2 = t('trade.errors.mismatch');
  return e;
}

/** This page does not apply (the trade password is already set, or not yet): a link to the one that does. */
function ElsewhereNotice(props: {
  text: string;
  link: string;
  to: string;
  color?: string | undefined;
  testId: string;
}) {
  return (
    <Alert variant="light" color={props.color} data-testid={props.testId}>
      <Group justify="space-between">
        <Text size="sm">{props.text}</Text>
        <Anchor component={Link} to={props.to} size="sm">
          {props.link}
        </Anchor>
      </Group>
    </Alert>
  );
}

/**
 * The new trade password twice, under `first` (what proves it is the customer: the login password
 * or the current trade password) and the server's refusal. Nothing is sent until the pair is six
 * digits twice and `checkFirst` finds nothing wrong.
 */
function NewPasswordForm(props: {
  error: unknown;
  pending: boolean;
  first: (error: string | undefined) => ReactNode;
  checkFirst: () => string | undefined;
  footer?: ReactNode;
  onSubmit: (password: string, password2: string) => void;
}) {
  const { t } = useTranslation('withdraw');
  const [password, setPassword] = useState('');
  const [password2, setPassword2] = useState('');
  const [errors, setErrors] = useState<PairErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkPair(password, password2, t);
    const other = props.checkFirst();
    if (other) found.other = other;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    props.onSubmit(password, password2);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {refusal(props.error) ? (
          <Alert color="yellow" variant="light" role="alert" data-testid="trade-error">
            {refusal(props.error)}
          </Alert>
        ) : null}
        {props.first(errors.other)}
        <Digits
          label={t('trade.password')}
          value={password}
          onChange={setPassword}
          error={errors.password}
          testId="trade-password"
        />
        <Digits
          label={t('trade.password2')}
          value={password2}
          onChange={setPassword2}
          error={errors.password2}
          testId="trade-password2"
        />
        {props.footer}
        <Button type="submit" size="md" loading={props.pending} data-testid="trade-submit">
          {t('trade.submit')}
        </Button>
      </Stack>
    </form>
  );
}

/** /bindmpwd: set the trade password first (exactly 6 digits), confirmed by the login password. */
export function BindTradePasswordPage() {
  const { t } = useTranslation('withdraw');
  const status = useTradeStatus();
  const bind = useBindTrade();
  const [login, setLogin] = useState('');
  let body: ReactNode;
  if (bind.isSuccess) body = <Done text={t('trade.bound')} testId="trade-bound" />;
  else if (status.isLoading) body = <Loader size="sm" />;
  else if (status.data?.transaction_password === '1')
    body = (
      <ElsewhereNotice
        text={t('trade.alreadySet')}
        link={t('trade.goEdit')}
        to="/editPasswordTrade"
        testId="trade-already-set"
      />
    );
  else
    body = (
      <NewPasswordForm
        error={bind.error}
        pending={bind.isPending}
        checkFirst={() => (login ? undefined : t('trade.errors.login'))}
        first={(error) => (
          <PasswordInput
            label={t('trade.loginPassword')}
            description={t('trade.loginPasswordHint')}
            value={login}
            onChange={(e) => setLogin(e.currentTarget.value)}
            autoComplete="current-password"
            error={error}
            data-testid="trade-login-password"
          />
        )}
        footer={
          <Text size="xs" c="dimmed">
            {t('trade.lockInfo', {
              max: status.data?.max_failures ?? 5,
              minutes: status.data?.lock_minutes ?? 15,
            })}
          </Text>
        }
        onSubmit={(password, password2) =>
          bind.mutate({ password: login, trade_password: password, trade_password2: password2 })
        }
      />
    );
  return (
    <Frame title={t('trade.bindTitle')} intro={t('trade.intro')} testId="bindmpwd-page">
      {body}
    </Frame>
  );
}

/** /editPasswordTrade: the current trade password (counted towards the lock-out) and a new one. */
export function EditTradePasswordPage() {
  const { t } = useTranslation('withdraw');
  const status = useTradeStatus();
  const edit = useEditTrade();
  const [old, setOld] = useState('');
  let body: ReactNode;
  if (edit.isSuccess) body = <Done text={t('trade.changed')} testId="trade-changed" />;
  else if (status.isLoading) body = <Loader size="sm" />;
  else if (status.data?.transaction_password === '0')
    body = (
      <ElsewhereNotice
        text={t('trade.notSet')}
        link={t('trade.goBind')}
        to="/bindmpwd"
        color="yellow"
        testId="trade-not-set"
      />
    );
  else
    body = (
      <NewPasswordForm
        error={edit.error}
        pending={edit.isPending}
        checkFirst={() => (SIX_DIGITS.test(old) ? undefined : t('trade.errors.format'))}
        first={(error) => (
          <Digits label={t('trade.old')} value={old} onChange={setOld} error={error} testId="trade-old" />
        )}
        onSubmit={(password, password2) =>
          edit.mutate({ old_trade_password: old, trade_password: password, trade_password2: password2 })
        }
      />
    );
  return (
    <Frame title={t('trade.editTitle')} intro={t('trade.intro')} testId="edit-trade-page">
      {body}
    </Frame>
  );
}

/** /googleCode: enable the Google authenticator (key + confirming code) or disable it with a code. */
export function GoogleCodePage() {
  const { t } = useTranslation('withdraw');
  const status = useTradeStatus();
  const enabled = status.data?.google === '1';
  const secret = useGoogleSecret(status.isSuccess && !enabled);
  const enable = useGoogleEnable();
  const disable = useGoogleDisable();
  const [code, setCode] = useState('');
  const action = enabled ? disable : enable;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!SIX_DIGITS.test(code)) return;
    action.mutate({ google_code: code }, { onSuccess: () => setCode('') });
  };
  return (
    <Frame title={t('google.title')} intro={t('google.intro')} testId="google-page">
      {status.isLoading ? (
        <Loader size="sm" />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {refusal(action.error) ? (
              <Alert color="yellow" variant="light" role="alert">
                {refusal(action.error)}
              </Alert>
            ) : null}
            {enabled ? (
              <Alert color="teal" variant="light" data-testid="google-enabled">
                {t('google.enabled')} {t('google.disableHint')}
              </Alert>
            ) : (
              <Stack gap="xs">
                <Text size="sm">{t('google.step1')}</Text>
                <Code
                  block
                  data-testid="google-secret"
                  style={{ wordBreak: 'break-all', fontSize: 16, letterSpacing: 1 }}
                >
                  {secret.data?.secret ?? '…'}
                </Code>
                {secret.data?.uri ? (
                  <Anchor href={secret.data.uri} size="sm">
                    {t('google.link')}
                  </Anchor>
                ) : null}
                <Text size="sm">{t('google.step2')}</Text>
              </Stack>
            )}
            <TextInput
              label={t('google.code')}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, '').slice(0, 6))}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              data-testid="google-code"
            />
            <Button
              type="submit"
              color={enabled ? 'red' : undefined}
              loading={action.isPending}
              data-testid="google-submit"
            >
              {enabled ? t('google.disable') : t('google.enable')}
            </Button>
          </Stack>
        </form>
      )}
    </Frame>
  );
}

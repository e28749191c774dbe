import { ACCESS_LIMITS, type CodeScene } from '@bourse/protocol';
import { Alert, Button, Group, Input, PinInput, Stack, Text } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';
import { refusalOf, refusedField, sendCode, useBindContact } from '../api.ts';
import { type PendingChange, readPending, writePending } from '../pending.ts';
import { Frame } from './Frame.tsx';

type Field = 'code' | 'old_code';

/** Whole seconds until `at` (ms), ticking once a second (a display countdown, not a rule). */
function useSecondsUntil(at: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= at) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [at]);
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Six boxes for one code, with its resend button counting down the server's `resend_in`. */
function CodeBoxes(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  resendAt: number;
  onResend: () => void;
  resending: boolean;
  testId: string;
}) {
  const { t } = useTranslation('profile');
  const seconds = useSecondsUntil(props.resendAt);
  return (
    <Input.Wrapper label={props.label} error={props.error} data-testid={props.testId}>
      <Stack gap={6} mt={6}>
        <PinInput
          length={ACCESS_LIMITS.codeLength}
          type="number"
          oneTimeCode
          inputMode="numeric"
          size="md"
          gap={6}
          value={props.value}
          onChange={props.onChange}
          error={Boolean(props.error)}
          aria-label={props.label}
          data-testid={`${props.testId}-input`}
        />
        <Group justify="flex-end">
          <Button
            variant="subtle"
            size="compact-sm"
            disabled={seconds > 0}
            loading={props.resending}
            onClick={props.onResend}
            data-testid={`${props.testId}-resend`}
            data-seconds-left={seconds > 0 ? seconds : undefined}
          >
            {seconds > 0 ? t('verify.resendIn', { seconds }) : t('verify.resend')}
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}

/**
 * `/verificationCode` (open, per the spec): the code step of binding or changing a phone or
 * e-mail. The codes went out from `/mobile` or `/email`; this screen takes them (and resends), then
 * makes the change. Without a change in progress in this tab it says so.
 */
export function VerificationCodePage() {
  const { t } = useTranslation('profile');
  const token = useToken();
  const [pending, setPending] = useState<PendingChange | null>(() => readPending());
  const [codes, setCodes] = useState<Record<Field, string>>({ code: '', old_code: '' });
  const [missing, setMissing] = useState<Field | null>(null);
  const [resending, setResending] = useState<Field | null>(null);
  const [resendRefusal, setResendRefusal] = useState<string | null>(null);
  const bind = useBindContact();

  if (bind.isSuccess) {
    return (
      <Frame title={t('verify.title')} testId="verify-page">
        <Alert color="teal" variant="light" role="status" data-testid="verify-done">
          {t('verify.done', { value: bind.variables.type === 'email' ? bind.data.email : bind.data.phone })}
        </Alert>
        <Button
          component={Link}
          to="/setting"
          variant="light"
          fullWidth
          mt="md"
          data-testid="verify-to-centre"
        >
          {t('verify.toCentre')}
        </Button>
      </Frame>
    );
  }
  if (!token || !pending) {
    return (
      <Frame title={t('verify.title')} testId="verify-page">
        <Alert variant="light" data-testid="verify-none">
          {t('verify.none')}
        </Alert>
      </Frame>
    );
  }

  const kind = t(`message.kind.${pending.type}`);
  const failed = refusedField(bind.error);
  const refusal = refusalOf(bind.error);
  const errorOf = (field: Field) =>
    missing === field ? t('verify.title') : failed === field ? refusal : null;

  const resend = async (field: Field) => {
    const scene: CodeScene = field === 'old_code' ? 'unbind' : 'bind';
    const account = field === 'old_code' ? (pending.old?.account ?? '') : pending.account;
    setResending(field);
    setResendRefusal(null);
    try {
      const sent = await sendCode({
        account,
        scene,
        ...(field === 'code' && pending.area_code ? { area_code: pending.area_code } : {}),
      });
      const next = {
        ...pending,
        resendAt: { ...pending.resendAt, [field]: Date.now() + sent.resend_in * 1000 },
      };
      writePending(next);
      setPending(next);
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'refused') setResendRefusal(error.message);
    } finally {
      setResending(null);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const short = (value: string) => value.length !== ACCESS_LIMITS.codeLength;
    if (pending.old && short(codes.old_code)) return setMissing('old_code');
    if (short(codes.code)) return setMissing('code');
    setMissing(null);
    bind.mutate(
      {
        type: pending.type,
        account: pending.account,
        ...(pending.area_code ? { area_code: pending.area_code } : {}),
        code: codes.code,
        ...(pending.old ? { old_code: codes.old_code } : {}),
      },
      { onSuccess: () => writePending(null) },
    );
  };

  return (
    <Frame title={t('verify.title')} subtitle={t('verify.validFor')} testId="verify-page">
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          {refusal && !failed ? (
            <Alert color="yellow" variant="light" role="alert" data-testid="verify-error">
              {refusal}
            </Alert>
          ) : null}
          {resendRefusal ? (
            <Alert color="yellow" variant="light" role="alert">
              {resendRefusal}
            </Alert>
          ) : null}
          {pending.old ? (
            <CodeBoxes
              label={t('verify.oldCode', { kind, to: pending.old.shown })}
              value={codes.old_code}
              onChange={(value) => setCodes((c) => ({ ...c, old_code: value }))}
              error={errorOf('old_code')}
              resendAt={pending.resendAt.old_code}
              onResend={() => void resend('old_code')}
              resending={resending === 'old_code'}
              testId="verify-old"
            />
          ) : null}
          <CodeBoxes
            label={t('verify.newCode', { kind, to: pending.shown })}
            value={codes.code}
            onChange={(value) => setCodes((c) => ({ ...c, code: value }))}
            error={errorOf('code')}
            resendAt={pending.resendAt.code}
            onResend={() => void resend('code')}
            resending={resending === 'code'}
            testId="verify-new"
          />
          {pending.old ? (
            <Text size="xs" c="dimmed">
              {t('contact.loginNote', { kind })}
            </Text>
          ) : null}
          <Group grow>
            <Button
              variant="default"
              component={Link}
              to="/setting"
              onClick={() => writePending(null)}
              data-testid="verify-cancel"
            >
              {t('verify.cancel')}
            </Button>
            <Button type="submit" loading={bind.isPending} data-testid="verify-submit">
              {t('verify.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Frame>
  );
}

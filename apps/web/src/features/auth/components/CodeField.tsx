import type { CodeScene } from '@bourse/protocol';
import { ACCESS_LIMITS } from '@bourse/protocol';
import { Button, Group, Input } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { type GetCodeInput, useGetCode } from '../api/getCode.ts';
import { useCountdown } from '../hooks/useCountdown.ts';

/** Where the code goes; `null` when the account field is not valid yet (its own error is then shown). */
export type CodeTarget = { account: string; area_code?: string; shown: string } | null;

/**
 * The verification-code input and its "get code" button. After a code is sent the button counts down
 * the server's `resend_in`; a cooldown refusal counts down the seconds the server names.
 */
export function CodeField({
  scene,
  target,
  value,
  onChange,
  error,
  onRefused,
  testId,
}: {
  scene: CodeScene;
  /** Called on click: validates the account field and says where to send. */
  target: () => CodeTarget;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  onRefused: (message: string | null) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const getCode = useGetCode();
  const { secondsLeft, start } = useCountdown();
  const [sent, setSent] = useState<{ shown: string; minutes: number } | null>(null);

  const send = () => {
    const where = target();
    if (!where) return;
    onRefused(null);
    const input: GetCodeInput = { account: where.account, scene };
    if (where.area_code) input.area_code = where.area_code;
    getCode.mutate(input, {
      onSuccess: (data) => {
        start(data.resend_in);
        setSent({ shown: where.shown, minutes: Math.max(1, Math.round(data.expires_in / 60)) });
      },
      onError: (failure) => {
        if (!(failure instanceof ApiError) || failure.kind !== 'refused') return;
        onRefused(failure.message);
        const wait = failure.reason === 'CODE_COOLDOWN' ? Number(failure.params?.seconds) : Number.NaN;
        if (Number.isFinite(wait) && wait > 0) start(wait);
      },
    });
  };

  const id = useId();
  const description = sent ? t('auth.code.sent', { account: sent.shown, minutes: sent.minutes }) : undefined;
  const describedBy = [error ? `${id}-error` : null, description ? `${id}-description` : null].filter(
    Boolean,
  );
  return (
    <Input.Wrapper
      id={id}
      label={t('auth.code.label')}
      error={error}
      description={description}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    >
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Input
          id={id}
          style={{ flex: 1 }}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={ACCESS_LIMITS.codeLength}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, ''))}
          error={Boolean(error)}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
          data-testid={testId}
        />
        <Button
          variant="light"
          miw={128}
          onClick={send}
          loading={getCode.isPending}
          disabled={secondsLeft > 0}
          data-testid="get-code"
          data-seconds-left={secondsLeft > 0 ? secondsLeft : undefined}
        >
          {secondsLeft > 0 ? t('auth.code.resend', { seconds: secondsLeft }) : t('auth.code.get')}
        </Button>
      </Group>
    </Input.Wrapper>
  );
}

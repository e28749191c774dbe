import { formatExact, moneyScaleOf } from '@bourse/money';
import { LOCALE_OF } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from './api.ts';
import { useLang } from './i18n.ts';

/** A refusal or failure, shown where the action was. */
export function ErrorNote({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (!error) return null;
  const message =
    error instanceof ApiError || error instanceof Error ? error.message : t('common.requestError');
  return (
    <Alert color="red" variant="light" role="alert" data-testid="error-note">
      {message}
    </Alert>
  );
}

/** What a change did, shown where it was made until closed (nothing when `children` is empty). */
export function DoneNote(props: { children: ReactNode; onClose: () => void; 'data-testid'?: string }) {
  if (!props.children) return null;
  return (
    <Alert
      color="green"
      variant="light"
      withCloseButton
      onClose={props.onClose}
      data-testid={props['data-testid']}
    >
      {props.children}
    </Alert>
  );
}

/** Tabular figures for times, ids and counts; amounts go through `Amount` (@bourse/ui `Num`). */
export function Figure({ children }: { children: ReactNode }) {
  return (
    <Text component="span" size="sm" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
      {children}
    </Text>
  );
}

/**
 * An amount as staff see it: every digit the server sent (nothing rounded away), padded to the
 * currency's display scale and grouped in the reader's locale, through the customer app's number
 * component (@bourse/ui `Num`, formatting with @bourse/money).
 */
export function Amount({
  value,
  currency,
  signed = false,
  suffix = false,
}: {
  value: string | null | undefined;
  currency?: string;
  signed?: boolean;
  /** Show the currency after the figure. */
  suffix?: boolean;
}) {
  return (
    <Num
      size="sm"
      value={value}
      decimals={currency ? moneyScaleOf(currency) : 0}
      signed={signed}
      suffix={suffix && currency ? ` ${currency}` : undefined}
      empty="—"
    />
  );
}

/**
 * An amount inside a sentence or a summary ("1,500.5 USDT"): every digit the server sent, grouped in
 * the reader's locale (@bourse/money), no padding, the currency after it when given.
 */
export function useAmountText(): (value: string | null | undefined, currency?: string) => string {
  const lang = useLang();
  return (value, currency) => {
    if (value === null || value === undefined || value === '') return '—';
    const text = formatExact(value, { locale: LOCALE_OF[lang] });
    return currency ? `${text} ${currency}` : text;
  };
}

/**
 * A confirm dialog with a required reason (recorded in the audit log). `onSubmit` returns a
 * promise; a refusal stays in the dialog.
 */
export function ReasonDialog(props: {
  opened: boolean;
  title: string;
  text?: string;
  confirmLabel: string;
  danger?: boolean;
  reasonOptional?: boolean;
  /** Mantine modal size; wider for dialogs that state a summary or a preview. */
  size?: string;
  children?: ReactNode;
  onClose: () => void;
  onSubmit: (reason: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setReason('');
    setError(null);
    props.onClose();
  };
  return (
    <Modal opened={props.opened} onClose={close} title={props.title} centered size={props.size ?? 'md'}>
      <Stack>
        {props.text ? <Text size="sm">{props.text}</Text> : null}
        {props.children}
        <Textarea
          label={t('common.reason')}
          description={t('common.reasonHint')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          required={!props.reasonOptional}
          autosize
          minRows={2}
          maxLength={500}
          data-testid="reason-input"
        />
        <ErrorNote error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button
            color={props.danger ? 'red' : undefined}
            loading={busy}
            data-testid="reason-confirm"
            onClick={async () => {
              setBusy(true);
              setError(null);
              try {
                await props.onSubmit(reason);
                close();
              } catch (e) {
                setError(e);
              } finally {
                setBusy(false);
              }
            }}
          >
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

import { formatExact, formatPercent } from '@bourse/money';
import type { LoanStatus } from '@bourse/protocol';
import { Num, useNumSettings } from '@bourse/ui';
import { Alert, Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { REFUSAL_LINKS, refusalFix, STATE_COLORS } from '../logic.ts';

/** The phone / desktop switch of the loan screens: tables from 62em, cards below (as launchpad). */
export const WIDE = '(min-width: 62em)';

/** Words and figures inside sentences: USDT with every digit, percents, dates, states. */
export function useLoanWords() {
  const { t } = useTranslation('loans');
  const { locale } = useNumSettings();
  const lang = useLang();
  return {
    usdt: (value: string) => formatExact(value, { locale, minFractionDigits: 2 }),
    percent: (value: string) => formatPercent(value, { locale, digits: 'all' }),
    whole: (value: string | number) => formatExact(String(value), { locale }),
    date: (ms: number) => formatDate(ms, lang),
    time: (ms: number) => formatDateTime(ms, lang),
    state: (state: LoanStatus) => t(`state.${state}`),
  };
}

/** A USDT amount with every digit the server sent, at least two decimals, and its code. */
export function Usdt({
  value,
  testId,
  fw = 600,
  size = 'sm',
}: {
  value: string | null | undefined;
  testId?: string;
  fw?: number;
  size?: string;
}) {
  return (
    <Num
      value={value}
      decimals={2}
      suffix=" USDT"
      fw={fw}
      size={size}
      data-testid={testId}
      data-value={value ?? ''}
    />
  );
}

/** A labelled figure: small dimmed label above, the value below. */
export function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** Label and value on one line. */
export function Line({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <div style={{ textAlign: 'right' }}>{children}</div>
    </Group>
  );
}

export function LoanStateBadge({ state }: { state: LoanStatus }) {
  const words = useLoanWords();
  return (
    <Badge color={STATE_COLORS[state]} variant="light" data-testid="loan-state" data-state={state}>
      {words.state(state)}
    </Badge>
  );
}

/** Said on every loan screen: a loan never blocks the customer's own money. */
export function OwnFundsNote() {
  const { t } = useTranslation('loans');
  return (
    <Alert color="teal" variant="light" p="sm" data-testid="loans-own-funds">
      <Text size="sm">{t('common.ownFunds')}</Text>
    </Alert>
  );
}

/** A logged-out visitor: a way to log in and come back. */
export function LoginPrompt() {
  const { t } = useTranslation('loans');
  const location = useLocation();
  return (
    <Group justify="space-between" wrap="wrap" gap="sm" data-testid="loans-login">
      <Text size="sm" c="dimmed">
        {t('common.login')}
      </Text>
      <Button
        component={Link}
        to="/login"
        size="xs"
        onClick={() => rememberReturnTo(`${location.pathname}${location.search}`)}
      >
        {t('common.loginButton')}
      </Button>
    </Group>
  );
}

/** A refusal's params in the reader's words: states, tiers and features as words, the rest as sent. */
function useRefusalParams(params: Readonly<Record<string, string | number>>) {
  const { t, i18n } = useTranslation('loans');
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(params)) {
    const text = String(value);
    const word = (k: string) => (i18n.exists(k) ? String(t(k as never)) : null);
    out[key] =
      (key === 'state' ? word(`loans:state.${text}`) : null) ??
      (key === 'tier' ? word(`common:label.tier.${text}`) : null) ??
      (key === 'feature' ? word(`common:label.feature.${text}`) : null) ??
      value;
  }
  return out;
}

/** A refusal in the common catalog's words, and a link to where it can be fixed. */
export function RefusalNote({
  code,
  params,
  message,
  testId = 'loans-refusal',
}: {
  code: string;
  params?: Readonly<Record<string, string | number>>;
  message?: string;
  testId?: string;
}) {
  const { t, i18n } = useTranslation('loans');
  const shown = useRefusalParams(params ?? {});
  const key = `common:reason.${code}`;
  const text = i18n.exists(key) ? String(t(key as never, shown)) : (message ?? t('unknownRule', { code }));
  const fix = refusalFix(code);
  return (
    <Alert color="orange" variant="light" p="sm" data-testid={testId} data-reason={code}>
      <Stack gap={6}>
        <Text size="sm">{text}</Text>
        {fix ? (
          <Anchor
            component={Link}
            to={REFUSAL_LINKS[fix]}
            size="sm"
            fw={600}
            data-testid="loans-refusal-fix"
            data-fix={fix}
          >
            {t(`fix.${fix}`)}
          </Anchor>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** A failed call: its refusal in words when it was one, else "could not be loaded" with a retry. */
export function ErrorNote({ error, retry }: { error: unknown; retry?: () => void }) {
  const { t } = useTranslation('loans');
  if (error instanceof ApiError && error.kind === 'refused' && error.reason) {
    return <RefusalNote code={error.reason} params={error.params ?? {}} message={error.message} />;
  }
  return (
    <Group gap="sm" data-testid="loans-failed">
      <Text size="sm" c="red">
        {t('common.failed')}
      </Text>
      {retry ? (
        <Button size="xs" variant="default" onClick={retry}>
          {t('common.retry')}
        </Button>
      ) : null}
    </Group>
  );
}

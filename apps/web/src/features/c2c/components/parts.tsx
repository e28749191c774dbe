import { formatExact } from '@bourse/money';
import type { C2cMethod, C2cOrderSide, C2cState } from '@bourse/protocol';
import { Num, useNumSettings } from '@bourse/ui';
import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { useNow } from '../../../lib/serverClock.ts';
import { useC2cLive } from '../api.ts';
import { C2C_ROUTES, countdownText, STATE_COLORS } from '../logic.ts';

/** The phone / desktop switch of the C2C screens: tables from 62em, cards below (as launchpad). */
export const WIDE = '(min-width: 62em)';

/** Words and figures inside sentences: exact amounts, times, states, methods, sides. */
export function useC2cWords() {
  const { t } = useTranslation('c2c');
  const { locale } = useNumSettings();
  const lang = useLang();
  return {
    exact: (value: string) => formatExact(value, { locale }),
    fiat: (value: string) => formatExact(value, { locale, minFractionDigits: 2 }),
    time: (ms: number) => formatDateTime(ms, lang),
    state: (state: C2cState) => t(`state.${state}`),
    method: (method: C2cMethod) => t(`method.${method}`),
    side: (side: C2cOrderSide) => t(`side.${side}`),
  };
}

/** An amount with every digit the server sent and its currency. */
export function Amount({
  value,
  currency,
  testId,
  fiat = false,
  fw = 600,
  size = 'sm',
}: {
  value: string | null | undefined;
  currency: string;
  testId?: string;
  fiat?: boolean;
  fw?: number;
  size?: string;
}) {
  return (
    <Num
      value={value}
      decimals={fiat ? 2 : undefined}
      suffix={` ${currency}`}
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
    <Stack gap={2} data-testid={testId} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} component="div" style={{ overflowWrap: 'anywhere' }}>
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
      <div style={{ textAlign: 'right', minWidth: 0, overflowWrap: 'anywhere' }}>{children}</div>
    </Group>
  );
}

export function StateBadge({ state }: { state: C2cState }) {
  const words = useC2cWords();
  return (
    <Badge color={STATE_COLORS[state]} variant="light" data-testid="c2c-state" data-state={state}>
      {words.state(state)}
    </Badge>
  );
}

/** A deadline counting down on the server clock (`lib/serverClock.ts`). */
export function Countdown({ at, testId = 'c2c-countdown' }: { at: number; testId?: string }) {
  const now = useNow(true);
  const over = now >= at;
  return (
    <Text
      component="span"
      size="sm"
      fw={700}
      c={over ? 'red' : undefined}
      ff="monospace"
      data-testid={testId}
      data-deadline={at}
      data-over={over ? 'true' : 'false'}
    >
      {countdownText(at, now)}
    </Text>
  );
}

/** Said on every order screen: staff never ask for passwords, codes or side transfers. */
export function SafetyNote() {
  const { t } = useTranslation('c2c');
  return (
    <Alert color="yellow" variant="light" p="sm" data-testid="c2c-safety">
      <Text size="sm">{t('common.safety')}</Text>
    </Alert>
  );
}

/** The orderer pays no fee, with the rules one click away. */
export function NoFeeNote() {
  const { t } = useTranslation('c2c');
  return (
    <Group gap="xs" wrap="wrap" data-testid="c2c-no-fee">
      <Text size="sm">{t('common.noFee')}</Text>
      <Anchor component={Link} to={C2C_ROUTES.rules} size="sm" fw={600} data-testid="c2c-rules-link">
        {t('common.rulesLink')}
      </Anchor>
    </Group>
  );
}

/** A logged-out visitor: a way to log in and come back. */
export function LoginPrompt() {
  const { t } = useTranslation('c2c');
  const location = useLocation();
  return (
    <Group justify="space-between" wrap="wrap" gap="sm" data-testid="c2c-login">
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

export function DemoNote() {
  const { t } = useTranslation('c2c');
  return (
    <Alert color="gray" variant="light" p="sm" data-testid="c2c-demo">
      <Text size="sm">{t('common.demo')}</Text>
    </Alert>
  );
}

/** A refusal's params in the reader's words: states, methods and actions as words, the rest as sent. */
function useRefusalParams(params: Readonly<Record<string, string | number>>) {
  const { t, i18n } = useTranslation('c2c');
  const out: Record<string, string | number> = {};
  const word = (k: string) => (i18n.exists(k) ? String(t(k as never)) : null);
  for (const [key, value] of Object.entries(params)) {
    const text = String(value);
    out[key] =
      (key === 'state' ? word(`c2c:state.${text}`) : null) ??
      (key === 'method' ? word(`c2c:method.${text}`) : null) ??
      (key === 'action' ? word(`c2c:action.${text}`) : null) ??
      (key === 'field' ? word(`c2c:field.${text}`) : null) ??
      (key === 'tier' ? word(`common:label.tier.${text}`) : null) ??
      value;
  }
  return out;
}

/** What fixes a refusal, when there is a screen for it. */
function refusalFix(
  code: string,
): { to: string; key: 'common.verify' | 'nav.accounts' | 'nav.orders' } | null {
  if (code === 'C2C_VERIFIED_NAME_REQUIRED' || code.startsWith('VERIFICATION_'))
    return { to: C2C_ROUTES.verification, key: 'common.verify' };
  if (code === 'C2C_ACCOUNT_REQUIRED') return { to: C2C_ROUTES.accounts, key: 'nav.accounts' };
  if (code === 'C2C_OPEN_ORDERS_LIMIT') return { to: C2C_ROUTES.orders, key: 'nav.orders' };
  return null;
}

/** A server refusal in the common catalog's words, and a link to where it can be fixed. */
export function RefusalNote({
  code,
  params,
  message,
  testId = 'c2c-refusal',
}: {
  code: string;
  params?: Readonly<Record<string, string | number>>;
  message?: string;
  testId?: string;
}) {
  const { t, i18n } = useTranslation('c2c');
  const shown = useRefusalParams(params ?? {});
  const key = `common:reason.${code}`;
  const text = i18n.exists(key)
    ? String(t(key as never, shown))
    : (message ?? t('common.unknownRule', { code }));
  const fix = refusalFix(code);
  return (
    <Alert color="orange" variant="light" p="sm" data-testid={testId} data-reason={code} role="alert">
      <Stack gap={6}>
        <Text size="sm">{text}</Text>
        {fix ? (
          <Anchor component={Link} to={fix.to} size="sm" fw={600} data-testid="c2c-refusal-fix">
            {t(fix.key)}
          </Anchor>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** A failed call: its refusal in words when it was one, else "could not be loaded" with a retry. */
export function ErrorNote({ error, retry }: { error: unknown; retry?: () => void }) {
  const { t } = useTranslation('c2c');
  if (error instanceof ApiError && error.kind === 'refused' && error.reason) {
    return <RefusalNote code={error.reason} params={error.params ?? {}} message={error.message} />;
  }
  return (
    <Group gap="sm" data-testid="c2c-failed">
      <Text size="sm" c="red">
        {t('common.failed')}
      </Text>
      {retry ? (
        <Button size="xs" variant="default" onClick={retry} data-testid="c2c-retry">
          {t('common.retry')}
        </Button>
      ) : null}
    </Group>
  );
}

export function Loading() {
  return (
    <Group justify="center" p="xl" data-testid="c2c-loading">
      <Loader size="sm" />
    </Group>
  );
}

type Section = 'offers' | 'orders' | 'accounts' | 'rules';
const SECTION_PATHS: Record<Section, string> = {
  offers: C2C_ROUTES.offers,
  orders: C2C_ROUTES.orders,
  accounts: C2C_ROUTES.accounts,
  rules: C2C_ROUTES.rules,
};

/**
 * Every C2C screen's frame: its title, the section tabs (offers, my orders, accounts, rules) that
 * scroll sideways inside themselves on a phone, and the live channel while the screen is open.
 */
export function C2cPage({
  title,
  section,
  testId,
  children,
}: {
  title: string;
  section: Section | null;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('c2c');
  const navigate = useNavigate();
  useC2cLive();
  return (
    <Stack gap="md" p={{ base: 'sm', md: 'xl' }} maw={1600} mx="auto" w="100%" data-testid={testId}>
      {/* An order number is one long word: it wraps rather than run off a phone's screen. */}
      <Title order={2} size="h3" style={{ overflowWrap: 'anywhere' }}>
        {title}
      </Title>
      <Tabs
        value={section}
        onChange={(value) => value && navigate(SECTION_PATHS[value as Section])}
        variant="outline"
      >
        <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto' }}>
          {(Object.keys(SECTION_PATHS) as Section[]).map((key) => (
            <Tabs.Tab key={key} value={key} data-testid={`c2c-nav-${key}`}>
              {t(`nav.${key}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {children}
    </Stack>
  );
}

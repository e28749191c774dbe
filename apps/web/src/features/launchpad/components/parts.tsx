import { formatExact, formatPercent, moneyScaleOf, scaleOfStep } from '@bourse/money';
import type {
  JurisdictionProfileId,
  LaunchpadProjectData,
  LaunchpadProjectState,
  LaunchpadSubscriptionState,
  RiskRating,
  VerificationTier,
} from '@bourse/protocol';
import { Num, useNumSettings } from '@bourse/ui';
import { Alert, Anchor, Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { rememberReturnTo } from '../../../lib/returnTo.ts';
import { useNow } from '../../../lib/serverClock.ts';
import {
  countdownOf,
  PROJECT_STATE_COLORS,
  paramKind,
  progressView,
  REFUSAL_LINKS,
  refusalFix,
  SUBSCRIPTION_STATE_COLORS,
  splitDuration,
} from '../logic.ts';

/** The phone / desktop switch of the launchpad screens: tables from 62em, cards below (as earn). */
export const WIDE = '(min-width: 62em)';

/** Words and figures as sentences need them: amounts with every digit, dates, codes as words. */
export function useLaunchpadWords() {
  const { t } = useTranslation('launchpad');
  const { locale } = useNumSettings();
  const lang = useLang();
  const usdt = (value: string) => formatExact(value, { locale, minFractionDigits: moneyScaleOf('USDT') });
  return {
    usdt,
    /** Coins with at least the lot size's digits. */
    coins: (value: string, lotSize = '1') =>
      formatExact(value, { locale, minFractionDigits: scaleOfStep(lotSize) }),
    whole: (value: string | number) => formatExact(String(value), { locale }),
    percent: (value: string) => formatPercent(value, { locale, digits: 'all' }),
    date: (ms: number) => formatDate(ms, lang),
    time: (ms: number) => formatDateTime(ms, lang),
    state: (state: LaunchpadProjectState) => t(`state.${state}`),
    subState: (state: LaunchpadSubscriptionState) => t(`subState.${state}`),
    mode: (mode: LaunchpadProjectData['mode']) => t(`mode.${mode}`),
    tier: (tier: VerificationTier | null) => t(`tier.${tier ?? 'none'}`),
    rating: (rating: RiskRating) => t(`rating.${rating}`),
    jurisdictions: (list: readonly JurisdictionProfileId[]) =>
      list.map((j) => t(`jurisdiction.${j}`)).join(lang === 'en' ? ', ' : '、'),
  };
}

export type LaunchpadWords = ReturnType<typeof useLaunchpadWords>;

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

/** Label and value on one line (confirm dialog, cost preview, cards). */
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

/** An amount with every digit the server sent, padded to the currency's display scale, and its code. */
export function Amount({
  value,
  currency,
  padTo,
  testId,
  fw = 600,
}: {
  value: string | null | undefined;
  currency: string;
  /** Least fraction digits (USDT: 2; a coin: its lot size's). */
  padTo?: number;
  testId?: string;
  fw?: number;
}) {
  return (
    <Num
      value={value}
      decimals={padTo ?? moneyScaleOf(currency)}
      suffix={` ${currency}`}
      fw={fw}
      size="sm"
      data-testid={testId}
      data-value={value ?? ''}
    />
  );
}

/** A coin quantity padded to the lot size's digits. */
export function Coins({
  value,
  project,
  testId,
}: {
  value: string | null | undefined;
  project: Pick<LaunchpadProjectData, 'coin' | 'lot_size'>;
  testId?: string;
}) {
  return (
    <Amount value={value} currency={project.coin} padTo={scaleOfStep(project.lot_size)} testId={testId} />
  );
}

export function ProjectStateBadge({ state }: { state: LaunchpadProjectState }) {
  const words = useLaunchpadWords();
  return (
    <Badge color={PROJECT_STATE_COLORS[state]} variant="light" data-testid="project-state" data-state={state}>
      {words.state(state)}
    </Badge>
  );
}

/** The state badge and, once nothing is left, the sold-out one. */
export function ProjectBadges({ project }: { project: Pick<LaunchpadProjectData, 'state' | 'sold_out'> }) {
  const { t } = useTranslation('launchpad');
  return (
    <Group gap={6} wrap="nowrap">
      <ProjectStateBadge state={project.state} />
      {project.sold_out ? (
        <Badge color="red" variant="filled" data-testid="project-sold-out">
          {t('badge.soldOut')}
        </Badge>
      ) : null}
    </Group>
  );
}

export function SubscriptionStateBadge({ state }: { state: LaunchpadSubscriptionState }) {
  const words = useLaunchpadWords();
  return (
    <Badge
      color={SUBSCRIPTION_STATE_COLORS[state]}
      variant="light"
      data-testid="subscription-state"
      data-state={state}
    >
      {words.subState(state)}
    </Badge>
  );
}

/** Subscribed against supply: a bar, and the percent or "oversubscribed ×N" (pro rata may pass 100 %). */
export function ProgressFigure({ project }: { project: LaunchpadProjectData }) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const view = progressView(project);
  const text = view.oversubscribed
    ? t('progress.oversubscribed', { times: words.whole(view.times ?? '') })
    : t('progress.percent', { percent: words.percent(view.percent) });
  return (
    <Stack
      gap={4}
      data-testid="project-progress"
      data-percent={view.percent}
      data-over={view.oversubscribed ? '1' : '0'}
    >
      <Progress
        value={view.bar}
        size="sm"
        color={view.oversubscribed ? 'orange' : undefined}
        aria-label={text}
      />
      <Text
        size="xs"
        c={view.oversubscribed ? 'orange' : 'dimmed'}
        fw={view.oversubscribed ? 700 : undefined}
      >
        {text}
      </Text>
      {/* What is left only while it can still be subscribed (not on a closed, failed or refunded project). */}
      {project.mode === 'first_come' &&
      !project.sold_out &&
      (project.state === 'announced' || project.state === 'open') ? (
        <Text size="xs" c="dimmed" data-testid="project-remaining">
          {t('progress.remaining', {
            left: words.coins(project.remaining, project.lot_size),
            coin: project.coin,
          })}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The countdown to the window's opening or close, ticking each second; past the window, the close date. */
export function CountdownText({
  project,
  size = 'sm',
}: {
  project: Pick<LaunchpadProjectData, 'state' | 'opens_at' | 'closes_at'>;
  size?: string;
}) {
  const { t } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const ticking = project.state === 'announced' || project.state === 'open';
  const now = useNow(ticking);
  const countdown = countdownOf(project, now);
  if (countdown === null) {
    return (
      <Text size={size} c="dimmed" data-testid="project-countdown" data-kind="past">
        {t('countdown.closedOn', { date: words.time(project.closes_at) })}
      </Text>
    );
  }
  let text: string;
  if (countdown.kind === 'opening' || countdown.kind === 'closing') {
    text = t(`countdown.${countdown.kind}`);
  } else {
    const { days, hms } = splitDuration(countdown.msLeft);
    const time = days > 0 ? t('countdown.days', { count: days, hms }) : hms;
    text = t(`countdown.${countdown.kind}`, { time });
  }
  return (
    <Text
      size={size}
      fw={600}
      c={countdown.kind === 'closes' ? 'teal' : undefined}
      data-testid="project-countdown"
      data-kind={countdown.kind}
      style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
    >
      {text}
    </Text>
  );
}

/** A logged-out visitor: what they would see, and a way to log in and come back. */
export function LoginPrompt({ text }: { text: string }) {
  const { t } = useTranslation('launchpad');
  const location = useLocation();
  return (
    <Group justify="space-between" wrap="wrap" gap="sm" data-testid="launchpad-login">
      <Text size="sm" c="dimmed">
        {text}
      </Text>
      <Button
        component={Link}
        to="/login"
        size="xs"
        onClick={() => rememberReturnTo(`${location.pathname}${location.search}`)}
      >
        {t('eligibility.loginButton')}
      </Button>
    </Group>
  );
}

/** A refusal's params in the reader's words: codes as words, amounts grouped, epochs as dates. */
function useRefusalParams(code: string, params: Readonly<Record<string, string | number>>) {
  const { t, i18n } = useTranslation('launchpad');
  const words = useLaunchpadWords();
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(params)) {
    const kind = paramKind(code, key);
    const text = String(value);
    const exists = (k: string) => i18n.exists(`launchpad:${k}`);
    if (kind === 'tier' && exists(`tierShort.${text}`)) out[key] = t(`tierShort.${text}` as never);
    else if (kind === 'rating' && exists(`rating.${text}`)) out[key] = t(`rating.${text}` as never);
    else if (kind === 'jurisdiction' && exists(`jurisdiction.${text}`))
      out[key] = t(`jurisdiction.${text}` as never);
    else if (kind === 'projectState' && exists(`state.${text}`)) out[key] = t(`state.${text}` as never);
    else if (kind === 'amount' && /^[0-9]+(\.[0-9]+)?$/.test(text)) out[key] = words.whole(text);
    else if (kind === 'date' && typeof value === 'number') out[key] = words.time(value);
    else out[key] = value;
  }
  return out;
}

/**
 * A refusal (from the eligibility answer or a refused call) in the common catalog's words with its
 * params in the reader's language, and a link to where it can be fixed. Shown before the customer
 * tries, and in place when the server refuses.
 */
export function RefusalNote({
  code,
  params,
  message,
  testId = 'launchpad-refusal',
}: {
  code: string;
  params?: Readonly<Record<string, string | number>>;
  /** The server's own localized message, when the refusal came from a call. */
  message?: string;
  testId?: string;
}) {
  const { t, i18n } = useTranslation('launchpad');
  const shown = useRefusalParams(code, params ?? {});
  const key = `common:reason.${code}`;
  const text = i18n.exists(key)
    ? String(t(key as never, shown))
    : (message ?? t('eligibility.unknownRule', { code }));
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
            data-testid="launchpad-refusal-fix"
            data-fix={fix}
          >
            {t(`eligibility.fix.${fix}`)}
          </Anchor>
        ) : null}
      </Stack>
    </Alert>
  );
}

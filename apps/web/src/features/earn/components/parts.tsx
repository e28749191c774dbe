import { formatExact, formatPercent, moneyScaleOf } from '@bourse/money';
import type {
  EarnKind,
  EarnOrderState,
  EarnProductData,
  EarnProductState,
  EarnRedeemRule,
  JurisdictionProfileId,
  RiskRating,
  VerificationTier,
} from '@bourse/protocol';
import { Num, useNumSettings } from '@bourse/ui';
import { Alert, Anchor, Badge, Group, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { REFUSAL_LINKS, refusalFix, subscribedPercent, zoneName } from '../logic.ts';

/** The phone / desktop switch of the earn screens: tables from 62em, cards below. */
export const WIDE = '(min-width: 62em)';

/** Index and orders routes of each kind (VIP products are bought on /profit_buy too). */
export const KIND_ROUTES: Record<EarnKind, { index: string; orders: string }> = {
  custody: { index: '/profit_index', orders: '/profit_wdtg' },
  vip: { index: '/vip_index', orders: '/vip_wdtg' },
};

/** Digits of a decimal string's fraction ("0.0137" → 4). */
function fractionDigits(value: string): number {
  return (value.split('.')[1] ?? '').length;
}

/** Words and figures as sentences need them: amounts with every digit, rates, dates, labels. */
export function useEarnWords() {
  const { t } = useTranslation('earn');
  const { locale } = useNumSettings();
  const lang = useLang();
  const money = (value: string, currency: string) =>
    formatExact(value, { locale, minFractionDigits: moneyScaleOf(currency) });
  const rate = (value: string) =>
    formatPercent(value, { locale, digits: Math.max(2, fractionDigits(value)) });
  return {
    money,
    rate,
    date: (ms: number) => formatDate(ms, lang),
    zone: (zone: string) => zoneName(zone, locale, Date.now()),
    time: (ms: number) => formatDateTime(ms, lang),
    days: (count: number) => t('product.termDays', { count }),
    state: (state: EarnProductState) => t(`state.${state}`),
    orderState: (state: EarnOrderState) => t(`orderState.${state}`),
    tier: (tier: VerificationTier | null) => t(`tier.${tier ?? 'none'}`),
    rating: (rating: RiskRating) => t(`rating.${rating}`),
    jurisdictions: (list: readonly JurisdictionProfileId[]) =>
      list.map((j) => t(`jurisdiction.${j}`)).join(lang === 'en' ? ', ' : '、'),
    ruleName: (rule: EarnRedeemRule, penaltyRate: string | null) =>
      t(`ruleName.${rule}`, { rate: penaltyRate !== null ? rate(penaltyRate) : '' }),
  };
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

/** An amount with every digit the server sent, padded to the currency's display scale, and its code. */
export function Money({
  value,
  currency,
  testId,
  fw = 600,
  size = 'sm',
}: {
  value: string | null | undefined;
  currency: string;
  testId?: string;
  fw?: number;
  size?: string;
}) {
  return (
    <Num
      value={value}
      decimals={moneyScaleOf(currency)}
      suffix={` ${currency}`}
      fw={fw}
      size={size}
      data-testid={testId}
      data-value={value ?? ''}
    />
  );
}

/** A rate in percent with all its digits ("0.0137%"). */
export function Rate({ value, testId }: { value: string; testId?: string }) {
  const words = useEarnWords();
  return (
    <Text
      component="span"
      size="sm"
      fw={600}
      data-testid={testId}
      data-value={value}
      style={{ whiteSpace: 'nowrap' }}
    >
      {words.rate(value)}
    </Text>
  );
}

const STATE_COLORS: Record<EarnProductState, string> = {
  draft: 'gray',
  active: 'teal',
  paused: 'orange',
  closed: 'gray',
};

export function ProductStateBadge({ state }: { state: EarnProductState }) {
  const words = useEarnWords();
  return (
    <Badge color={STATE_COLORS[state]} variant="light" data-testid="product-state" data-state={state}>
      {words.state(state)}
    </Badge>
  );
}

const ORDER_COLORS: Record<EarnOrderState, string> = {
  in_custody: 'blue',
  redeeming: 'orange',
  redeemed: 'gray',
  completed: 'teal',
};

export function OrderStateBadge({ state }: { state: EarnOrderState }) {
  const words = useEarnWords();
  return (
    <Badge color={ORDER_COLORS[state]} variant="light" data-testid="order-state" data-state={state}>
      {words.orderState(state)}
    </Badge>
  );
}

/** Capacity left, with a bar of the share already subscribed. */
export function CapacityBar({ product }: { product: EarnProductData }) {
  const { t } = useTranslation('earn');
  const percent = subscribedPercent(product.subscribed, product.capacity, product.currency);
  return (
    <Stack gap={4} data-testid="product-capacity" data-left={product.capacity_left}>
      <Money value={product.capacity_left} currency={product.currency} testId="product-capacity-left" />
      <Progress value={percent} size="sm" aria-label={t('index.capacityBar', { percent })} />
      <Text size="xs" c="dimmed">
        {t('index.capacityBar', { percent })}
      </Text>
    </Stack>
  );
}

/** The funding account's name and, under it, where its money comes from in plain words. */
export function FundingSource({ product }: { product: EarnProductData }) {
  return (
    <Stack gap={2} data-testid="product-funding">
      <Text size="sm" fw={600} translate="no">
        {product.funding_account.name}
      </Text>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'normal' }}>
        {product.funding_account.source}
      </Text>
    </Stack>
  );
}

/**
 * A refusal (from the eligibility answer or a refused call): the common catalog's reason text with
 * its params, and a link to where it can be fixed (verification, the questionnaire, the assets).
 */
export function RefusalNote({
  code,
  params,
  message,
  testId = 'earn-refusal',
}: {
  code: string;
  params?: Readonly<Record<string, string | number>>;
  /** The server's own localized message, when the refusal came from a call. */
  message?: string;
  testId?: string;
}) {
  const { t, i18n } = useTranslation('earn');
  const key = `common:reason.${code}`;
  const text = i18n.exists(key)
    ? // biome-ignore lint/suspicious/noExplicitAny: a reason code from the server is a runtime key
      String(t(key as any, params ?? {}))
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
            data-testid="earn-refusal-fix"
            data-fix={fix}
          >
            {t(`eligibility.fix.${fix}`)}
          </Anchor>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** Label and value on one line (confirm dialogs, quote). */
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

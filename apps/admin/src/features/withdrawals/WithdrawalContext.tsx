import { Badge, Divider, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { useAmountText } from '../../app/ui.tsx';
import { type CustomerSummaryData, Facts } from '../customers/CustomerSummary.tsx';

export const RISK_CODES = [
  'new_account',
  'first_withdrawal',
  'new_destination',
  'shared_destination',
  'above_deposits',
] as const;
export type RiskFlag = { code: (typeof RISK_CODES)[number]; params: Record<string, string | number> };
export type DestinationHistory = {
  used_before: number;
  first_used_at: number | null;
  other_customers: number;
};

/** What the queue answers per withdrawal, as the money dialogs and the drawer need it. */
export type QueueWithdrawal = {
  id: string;
  method: 'address' | 'bank';
  currency: string;
  chain: string;
  destination: string;
  amount: string;
  fee: string;
  received: string;
  customer: CustomerSummaryData | null;
  destination_history: DestinationHistory;
  risk: RiskFlag[];
};

/** The risk flags of a row, each named in the staff member's language (never a raw code). */
export function RiskBadges({ flags }: { flags: RiskFlag[] }) {
  const { t } = useTranslation('withdraw');
  if (flags.length === 0) return null;
  return (
    <Group gap={4} data-testid="risk-flags">
      {flags.map((f) => (
        <Badge
          key={f.code}
          size="xs"
          variant="light"
          color={f.code === 'shared_destination' || f.code === 'above_deposits' ? 'red' : 'orange'}
          data-testid={`risk-${f.code}`}
          style={{ textTransform: 'none' }}
        >
          {t(`admin.risk.${f.code}`, f.params)}
        </Badge>
      ))}
    </Group>
  );
}

/** The destination and its history: how often this customer was paid there, since when, who else uses it. */
export function DestinationFacts({ row }: { row: QueueWithdrawal }) {
  const { t } = useTranslation('withdraw');
  const lang = useLang();
  const h = row.destination_history;
  return (
    <Facts
      rows={[
        [
          t('admin.context.destination'),
          <Text key="d" size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
            {row.destination} ({row.method === 'bank' ? t('records.methods.bank') : row.chain})
          </Text>,
        ],
        [
          t('admin.context.usedBefore'),
          h.used_before === 0
            ? t('admin.context.never')
            : t('admin.context.times', { n: h.used_before, first: formatTime(h.first_used_at, lang) }),
        ],
        ...(row.method === 'address'
          ? ([[t('admin.context.otherCustomers'), String(h.other_customers)]] as Array<[string, string]>)
          : []),
      ]}
    />
  );
}

/** The drawer's withdrawal part: destination, its history and the risk flags. */
export function WithdrawalSection({ row }: { row: QueueWithdrawal }) {
  const { t } = useTranslation('withdraw');
  return (
    <>
      <Divider label={t('admin.context.destinationTitle')} labelPosition="left" />
      <DestinationFacts row={row} />
      <Divider label={t('admin.context.risk')} labelPosition="left" />
      {row.risk.length === 0 ? (
        <Text size="sm">{t('admin.context.noRisk')}</Text>
      ) : (
        <RiskBadges flags={row.risk} />
      )}
    </>
  );
}

/**
 * What a money dialog states before the staff member confirms: amount and currency, fee and what
 * the customer receives, who (name and UID), where, and the flags raised.
 */
export function MoneySummary({ row }: { row: QueueWithdrawal }) {
  const { t } = useTranslation('withdraw');
  const amount = useAmountText();
  return (
    <Paper withBorder p="sm" radius="md" data-testid="money-summary">
      <Stack gap={4}>
        <Text fw={700} size="lg" data-testid="money-amount">
          {amount(row.amount, row.currency)}
        </Text>
        <Facts
          rows={[
            [t('records.columns.fee'), amount(row.fee, row.currency)],
            [t('records.columns.received'), amount(row.received, row.currency)],
            [
              t('admin.customer'),
              row.customer ? `${row.customer.name || '—'} · UID ${row.customer.uid}` : '—',
            ],
            [
              t('admin.context.destination'),
              <Text key="d" size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {row.destination}
              </Text>,
            ],
          ]}
        />
        <RiskBadges flags={row.risk} />
      </Stack>
    </Paper>
  );
}

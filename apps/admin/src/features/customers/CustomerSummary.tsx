import type { CustomerVerification } from '@bourse/protocol';
import { Anchor, Badge, Divider, Drawer, Group, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Figure, useAmountText } from '../../app/ui.tsx';

type Flow = { currency: string; count: number; amount: string };

const VERIFICATION_COLOUR = { unverified: 'orange', under_review: 'blue', verified: 'teal' } as const;

/** Who a money action pays or credits, as the server's queues answer it (`customer` of a row). */
export type CustomerSummaryData = {
  customer_id: string;
  uid: string;
  name: string;
  status: 'active' | 'disabled';
  created_at: number;
  age_days: number;
  verification: Pick<CustomerVerification, 'level' | 'status'>;
  last_login_at: number | null;
  activity: { days: number; deposits: Flow[]; withdrawals: Flow[] };
};

/** The queue's customer column: name, UID, verification and account age; opens the detail drawer. */
export function CustomerCell(props: { customer: CustomerSummaryData | null; onOpen: () => void }) {
  const { t } = useTranslation('admin');
  const c = props.customer;
  if (!c) return <Text c="dimmed">—</Text>;
  return (
    <UnstyledButton onClick={props.onOpen} data-testid="customer-cell" style={{ maxWidth: 220 }}>
      <Text size="sm" fw={600} truncate="end" c="blue">
        {c.name || c.uid}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Text size="xs" c="dimmed" ff="monospace">
          UID {c.uid}
        </Text>
        <Badge size="xs" variant="light" color="gray" style={{ textTransform: 'none' }}>
          {t('customerSummary.level', { level: c.verification.level })}
        </Badge>
      </Group>
      <Text size="xs" c={c.age_days < 7 ? 'orange' : 'dimmed'}>
        {t('customerSummary.ageDays', { days: c.age_days })}
      </Text>
    </UnstyledButton>
  );
}

function Flows({ flows }: { flows: Flow[] }) {
  const { t } = useTranslation('admin');
  const amount = useAmountText();
  if (flows.length === 0) return <Text size="sm">{t('customerSummary.none')}</Text>;
  return (
    <Stack gap={0}>
      {flows.map((f) => (
        <Figure key={f.currency}>
          {t('customerSummary.flow', { n: f.count, amount: amount(f.amount), currency: f.currency })}
        </Figure>
      ))}
    </Stack>
  );
}

/** Rows of label → value, the drawer's building block (also used by queue-specific sections). */
export function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <Table withRowBorders={false} verticalSpacing={4}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Td w="1%" style={{ verticalAlign: 'top', whiteSpace: 'nowrap' }}>
              <Text size="sm" c="dimmed">
                {label}
              </Text>
            </Table.Td>
            {/* A long e-mail or name wraps inside a phone's dialog instead of running past its edge. */}
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              {typeof value === 'string' ? <Text size="sm">{value}</Text> : value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * The customer behind a queue row: identity, verification, account age, recent activity, and
 * whatever the queue adds (`children`: the destination and its history, the risk flags).
 */
export function CustomerDrawer(props: {
  customer: CustomerSummaryData | null;
  title: string;
  onClose: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('admin');
  const lang = useLang();
  const c = props.customer;
  return (
    <Drawer
      opened={c !== null}
      onClose={props.onClose}
      position="right"
      size="md"
      title={<Text fw={600}>{props.title}</Text>}
      data-testid="customer-drawer"
    >
      {c ? (
        <Stack gap="sm">
          <Facts
            rows={[
              [t('customerSummary.name'), c.name || '—'],
              ['UID', <Figure key="uid">{c.uid}</Figure>],
              [
                t('customerSummary.verification'),
                <Text key="v" size="sm" c={VERIFICATION_COLOUR[c.verification.status]}>
                  {t(`customerSummary.verificationStates.${c.verification.status}`, {
                    level: c.verification.level,
                  })}
                </Text>,
              ],
              [t('customerSummary.status'), t(`customerSummary.statuses.${c.status}`)],
              [
                t('customerSummary.opened'),
                `${formatTime(c.created_at, lang)} · ${t('customerSummary.ageDays', { days: c.age_days })}`,
              ],
              [t('customerSummary.lastLogin'), formatTime(c.last_login_at, lang)],
            ]}
          />
          <Divider label={t('customerSummary.activity', { days: c.activity.days })} labelPosition="left" />
          <Facts
            rows={[
              [t('customerSummary.deposits'), <Flows key="d" flows={c.activity.deposits} />],
              [t('customerSummary.withdrawals'), <Flows key="w" flows={c.activity.withdrawals} />],
            ]}
          />
          {props.children}
          <Anchor component={Link} to={`/customers/detail?id=${encodeURIComponent(c.customer_id)}`} size="sm">
            {t('customerSummary.open')}
          </Anchor>
        </Stack>
      ) : null}
    </Drawer>
  );
}

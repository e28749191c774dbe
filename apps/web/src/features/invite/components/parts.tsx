import type { MyPromotionData, PromotionIncomeData, PromotionInviteeData } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Button, Group, List, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { percentOfBps } from '../logic.ts';

/** The named parts of `/invite`: levels, rules, the two lists (tables on desktop, cards on phones), the pager. */

export function ErrorNote({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation('invite');
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Group gap="sm" data-testid="invite-error">
      <Text size="sm" c="red">
        {t('error', { message })}
      </Text>
      <Button size="xs" variant="light" onClick={retry}>
        {t('retry')}
      </Button>
    </Group>
  );
}

function Amounts({ list, testId }: { list: { currency: string; amount: string }[]; testId: string }) {
  const { t } = useTranslation('invite');
  if (list.length === 0)
    return (
      <Text size="sm" c="dimmed" data-testid={testId}>
        {t('levels.none')}
      </Text>
    );
  return (
    <Stack gap={0} data-testid={testId}>
      {list.map((a) => (
        <Num key={a.currency} value={a.amount} suffix={` ${a.currency}`} fw={600} />
      ))}
    </Stack>
  );
}

/** Per level: its share of fees, friends counted, income per currency; then the total. */
export function Levels({ data }: { data: MyPromotionData }) {
  const { t } = useTranslation('invite');
  return (
    <Paper withBorder radius="lg" p="md" data-testid="invite-levels">
      <Stack gap="sm">
        <Title order={4}>{t('levels.title')}</Title>
        <SimpleGrid cols={{ base: 1, sm: Math.min(data.levels.length + 1, 5) }} spacing="sm">
          {data.levels.map((l) => (
            <Paper
              key={l.level}
              withBorder
              radius="md"
              p="sm"
              data-testid="invite-level"
              data-level={l.level}
            >
              <Text fw={600}>{t('levels.level', { level: l.level })}</Text>
              <Text size="sm" c="dimmed">
                {l.share_bps > 0
                  ? t('levels.share', { share: percentOfBps(l.share_bps) })
                  : t('levels.noShare')}
              </Text>
              <Group justify="space-between" mt="xs" wrap="nowrap">
                <Text size="sm">{t('levels.headcount')}</Text>
                <Num value={l.headcount} fw={600} data-testid="invite-headcount" />
              </Group>
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Text size="sm">{t('levels.income')}</Text>
                <Amounts list={l.income} testId="invite-level-income" />
              </Group>
            </Paper>
          ))}
          <Paper withBorder radius="md" p="sm" bg="var(--mantine-color-default-hover)">
            <Text fw={600}>{t('levels.total')}</Text>
            <Amounts list={data.total} testId="invite-total" />
          </Paper>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

/** The rules, stated before anyone invites: a share of fees paid, the depth and shares, what is excluded. */
export function Rules({ data }: { data: MyPromotionData }) {
  const { t } = useTranslation('invite');
  const shares = data.levels
    .filter((l) => l.share_bps > 0)
    .map((l) => t('rules.shareItem', { level: l.level, share: percentOfBps(l.share_bps) }))
    .join(' · ');
  return (
    <Paper withBorder radius="lg" p="md" data-testid="invite-rules">
      <Stack gap="xs">
        <Title order={4}>{t('rules.title')}</Title>
        <List size="sm" spacing={4}>
          <List.Item>{t('rules.fees')}</List.Item>
          {data.offered ? (
            <List.Item data-testid="invite-depth">
              {data.depth === 1 ? t('rules.depthOne') : t('rules.depthMany', { levels: data.depth })}
            </List.Item>
          ) : null}
          {data.offered && shares ? <List.Item>{t('rules.shares', { shares })}</List.Item> : null}
          <List.Item>{t('rules.attribution')}</List.Item>
          <List.Item data-testid="invite-exclusions">{t('rules.exclusions')}</List.Item>
          <List.Item>{t('rules.paid')}</List.Item>
        </List>
      </Stack>
    </Paper>
  );
}

export function NotOffered() {
  const { t } = useTranslation('invite');
  return (
    <Alert color="gray" data-testid="invite-not-offered">
      {t('notOffered')}
    </Alert>
  );
}

export function Pager(props: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  testId: string;
}) {
  const { t } = useTranslation('invite');
  if (props.pages <= 1) return null;
  return (
    <Group justify="flex-end" gap="xs" data-testid={props.testId}>
      <Button
        size="xs"
        variant="default"
        disabled={props.page <= 1}
        onClick={() => props.onPage(props.page - 1)}
      >
        {t('pager.prev')}
      </Button>
      <Text size="sm">{t('pager.page', { page: props.page, pages: props.pages })}</Text>
      <Button
        size="xs"
        variant="default"
        disabled={props.page >= props.pages}
        onClick={() => props.onPage(props.page + 1)}
      >
        {t('pager.next')}
      </Button>
    </Group>
  );
}

export function InviteeTable({ items }: { items: PromotionInviteeData[] }) {
  const { t } = useTranslation('invite');
  const lang = useLang();
  return (
    <Table verticalSpacing="sm" fz="sm" data-testid="invite-invitees-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('invitees.uid')}</Table.Th>
          <Table.Th>{t('invitees.name')}</Table.Th>
          <Table.Th>{t('invitees.contact')}</Table.Th>
          <Table.Th>{t('invitees.level')}</Table.Th>
          <Table.Th>{t('invitees.registered')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((i) => (
          <Table.Tr key={i.uid} data-testid="invite-invitee">
            <Table.Td ff="monospace" translate="no">
              {i.uid}
            </Table.Td>
            <Table.Td>{i.name || '—'}</Table.Td>
            <Table.Td translate="no">{i.contact || '—'}</Table.Td>
            <Table.Td>{t('levels.level', { level: i.level })}</Table.Td>
            <Table.Td>{formatDateTime(i.registered_at, lang)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function InviteeCards({ items }: { items: PromotionInviteeData[] }) {
  const { t } = useTranslation('invite');
  const lang = useLang();
  return (
    <Stack gap="xs" data-testid="invite-invitees-cards">
      {items.map((i) => (
        <Paper key={i.uid} withBorder radius="md" p="sm" data-testid="invite-invitee">
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600} ff="monospace">
              {t('invitees.uid')} {i.uid}
            </Text>
            <Text size="sm">{t('levels.level', { level: i.level })}</Text>
          </Group>
          <Text size="sm">
            {i.name || '—'} · {i.contact || '—'}
          </Text>
          <Text size="xs" c="dimmed">
            {t('invitees.registered')} {formatDateTime(i.registered_at, lang)}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

export function IncomeTable({ items }: { items: PromotionIncomeData[] }) {
  const { t } = useTranslation('invite');
  const lang = useLang();
  return (
    <Table verticalSpacing="sm" fz="sm" data-testid="invite-income-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('income.id')}</Table.Th>
          <Table.Th ta="right">{t('income.amount')}</Table.Th>
          <Table.Th>{t('income.remark')}</Table.Th>
          <Table.Th>{t('income.time')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((i) => (
          <Table.Tr key={i.id} data-testid="invite-income-line">
            <Table.Td ff="monospace" fz="xs" translate="no">
              {i.id}
            </Table.Td>
            <Table.Td ta="right">
              <Num value={i.amount} suffix={` ${i.currency}`} fw={600} />
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }} data-testid="invite-income-remark">
              {i.remark}
            </Table.Td>
            <Table.Td>{formatDateTime(i.created_at, lang)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function IncomeCards({ items }: { items: PromotionIncomeData[] }) {
  const lang = useLang();
  return (
    <Stack gap="xs" data-testid="invite-income-cards">
      {items.map((i) => (
        <Paper key={i.id} withBorder radius="md" p="sm" data-testid="invite-income-line">
          <Group justify="space-between" wrap="nowrap">
            <Num value={i.amount} suffix={` ${i.currency}`} fw={700} />
            <Text size="xs" c="dimmed">
              {formatDateTime(i.created_at, lang)}
            </Text>
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="invite-income-remark">
            {i.remark}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }} translate="no">
            {i.id}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

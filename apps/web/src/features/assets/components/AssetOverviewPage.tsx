import { moneyScaleOf } from '@bourse/money';
import { Num } from '@bourse/ui';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useAssets } from '../../../shared/assets/getAssets.ts';
import { isZero, totalsByCurrency } from '../logic.ts';
import { AssetActions, type AssetSheets, useAssetSheets } from './AssetActions.tsx';
import { AssetRowCard } from './AssetRowCard.tsx';
import { StaleBadge } from './StaleBadge.tsx';

/** `/table1`: the asset overview — total value, per-account totals, one row per currency with actions. */
export function AssetOverviewPage({ Sheets }: { Sheets: AssetSheets }) {
  const { t } = useTranslation('assets');
  const navigate = useNavigate();
  const assets = useAssets();
  const sheets = useAssetSheets(Sheets);
  const [hideZero, setHideZero] = useState(false);

  if (assets.isPending) {
    return (
      <Group justify="center" py={80}>
        <Loader />
      </Group>
    );
  }
  if (assets.isError || !assets.data) {
    return (
      <Alert color="red" mt="lg">
        <Group justify="space-between">
          <Text size="sm">{(assets.error as Error | null)?.message}</Text>
          <Button size="xs" variant="light" onClick={() => assets.refetch()}>
            {t('common.retry')}
          </Button>
        </Group>
      </Alert>
    );
  }
  const data = assets.data;
  const rows = totalsByCurrency(data).filter((r) => !hideZero || !isZero(r.total));

  return (
    <Stack gap="lg" py={{ base: 'md', sm: 32 }} data-testid="assets-overview">
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
          <Stack gap={4}>
            <Group gap="xs">
              <Title order={1} size="h4">
                {t('overview.title')}
              </Title>
              {data.is_demo === 1 && (
                <Badge color="grape" variant="light">
                  {t('common.demoBadge')}
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              {t('overview.totalValue')}
            </Text>
            <Group gap="sm" align="baseline">
              <Num value={data.total_usdt} kind="fiat" fz={32} fw={700} data-testid="assets-total" />
              <Text c="dimmed">USDT</Text>
              {data.price_stale && (
                <Badge color="orange" variant="light" data-testid="assets-indicative">
                  {t('overview.indicative')}
                </Badge>
              )}
            </Group>
          </Stack>
          <Stack gap="xs" align="flex-end">
            <AssetActions currency="USDT" open={sheets.open} size="sm" testId="main" />
            <Group gap="md">
              <Anchor component={Link} to="/table2" size="sm" data-testid="link-table2">
                {t('overview.accountsLink')}
              </Anchor>
              <Anchor component={Link} to="/record" size="sm" data-testid="link-records">
                {t('overview.recordsLink')}
              </Anchor>
            </Group>
          </Stack>
        </Group>
      </Paper>

      <Stack gap="xs">
        <Text fw={600}>{t('overview.byAccount')}</Text>
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
          {data.accounts.map((a) => (
            <UnstyledButton
              key={a.type}
              onClick={() => navigate(`/table2?type=${a.type}`)}
              data-testid={`account-card-${a.type}`}
            >
              <Card withBorder radius="md" padding="md">
                <Text size="sm" c="dimmed">
                  {t(`accountType.${a.type}`)}
                </Text>
                <Group gap={4} align="baseline">
                  <Num value={a.total_usdt} kind="fiat" fw={700} fz="lg" />
                  <Text size="xs" c="dimmed">
                    USDT
                  </Text>
                </Group>
              </Card>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </Stack>

      <Group justify="space-between">
        <Text fw={600}>{t('common.currency')}</Text>
        <Switch
          label={t('overview.hideZero')}
          checked={hideZero}
          onChange={(e) => setHideZero(e.currentTarget.checked)}
          data-testid="hide-zero"
        />
      </Group>

      {rows.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed">
            {t('overview.empty')}
          </Text>
        </Paper>
      ) : (
        <>
          <Paper withBorder radius="md" visibleFrom="sm">
            <Table verticalSpacing="md" highlightOnHover data-testid="assets-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('common.currency')}</Table.Th>
                  <Table.Th ta="right">{t('common.available')}</Table.Th>
                  <Table.Th ta="right">{t('common.frozen')}</Table.Th>
                  <Table.Th ta="right">{t('common.value')}</Table.Th>
                  <Table.Th ta="right">{t('common.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.currency} data-testid={`asset-row-${r.currency}`}>
                    <Table.Td>
                      <Text fw={600}>{r.currency}</Text>
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num
                        value={r.available}
                        kind="money"
                        scale={moneyScaleOf(r.currency)}
                        data-testid={`asset-available-${r.currency}`}
                      />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num value={r.frozen} kind="money" scale={moneyScaleOf(r.currency)} opacity={0.7} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Group gap={6} justify="flex-end" wrap="nowrap">
                        <StaleBadge show={r.price_stale && !isZero(r.total)} />
                        <Num value={r.value_usdt} kind="fiat" empty={t('overview.noPrice')} />
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Group justify="flex-end">
                        <AssetActions currency={r.currency} open={sheets.open} testId={r.currency} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
          <Stack gap="sm" hiddenFrom="sm">
            {rows.map((r) => (
              <AssetRowCard
                key={r.currency}
                row={r}
                testId={`asset-card-${r.currency}`}
                actions={<AssetActions currency={r.currency} open={sheets.open} testId={`m-${r.currency}`} />}
              />
            ))}
          </Stack>
        </>
      )}
      <Text size="xs" c="dimmed">
        {t('overview.valuationNote')}
      </Text>
      {sheets.node}
    </Stack>
  );
}

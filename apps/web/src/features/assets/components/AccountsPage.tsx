import { moneyScaleOf } from '@bourse/money';
import type { AssetAccountType } from '@bourse/protocol';
import { Num } from '@bourse/ui';
import { Alert, Group, Loader, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAssets } from '../../../shared/assets/getAssets.ts';
import { ACCOUNT_TYPES, isZero } from '../logic.ts';
import { AssetActions, type AssetSheets, useAssetSheets } from './AssetActions.tsx';
import { AssetRowCard } from './AssetRowCard.tsx';
import { StaleBadge } from './StaleBadge.tsx';

/**
 * `/table2`: one account type at a time (spot, contract, options, earn, funding — `?type=`), with
 * its value in USDT and one row per currency; transfer starts from this account.
 */
export function AccountsPage({ Sheets }: { Sheets: AssetSheets }) {
  const { t } = useTranslation('assets');
  const [params, setParams] = useSearchParams();
  const wanted = params.get('type');
  const type: AssetAccountType = (ACCOUNT_TYPES as readonly string[]).includes(wanted ?? '')
    ? (wanted as AssetAccountType)
    : 'spot';
  const assets = useAssets();
  const sheets = useAssetSheets(Sheets);
  const account = assets.data?.accounts.find((a) => a.type === type);

  return (
    <Stack gap="lg" py={{ base: 'md', sm: 32 }} data-testid="assets-accounts">
      <Stack gap={4}>
        <Title order={1} size="h3">
          {t('table2.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('table2.subtitle')}
        </Text>
      </Stack>
      <SegmentedControl
        value={type}
        onChange={(v) => setParams({ type: v }, { replace: true })}
        data={ACCOUNT_TYPES.map((a) => ({ value: a, label: t(`accountType.${a}`) }))}
        data-testid="account-tabs"
        fullWidth
      />
      {assets.isPending ? (
        <Group justify="center" py="xl">
          <Loader />
        </Group>
      ) : assets.isError || !account ? (
        <Alert color="red">{(assets.error as Error | null)?.message}</Alert>
      ) : (
        <>
          <Paper withBorder radius="lg" p="lg">
            <Group justify="space-between" wrap="wrap">
              <Stack gap={2}>
                <Text size="sm" c="dimmed">
                  {t(`accountType.${type}`)} · {t('table2.accountTotal')}
                </Text>
                <Group gap="xs" align="baseline">
                  <Num value={account.total_usdt} kind="fiat" fz={28} fw={700} data-testid="account-total" />
                  <Text c="dimmed">USDT</Text>
                  {account.price_stale && <StaleBadge show />}
                </Group>
              </Stack>
              <AssetActions currency="USDT" from={type} open={sheets.open} size="sm" testId="account" />
            </Group>
          </Paper>
          <Paper withBorder radius="md" visibleFrom="sm">
            <Table verticalSpacing="md" data-testid="account-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('common.currency')}</Table.Th>
                  <Table.Th ta="right">{t('common.available')}</Table.Th>
                  <Table.Th ta="right">{t('common.frozen')}</Table.Th>
                  <Table.Th ta="right">{t('common.total')}</Table.Th>
                  <Table.Th ta="right">{t('common.value')}</Table.Th>
                  <Table.Th ta="right">{t('common.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {account.rows.map((r) => (
                  <Table.Tr key={r.currency} data-testid={`account-row-${r.currency}`}>
                    <Table.Td fw={600}>{r.currency}</Table.Td>
                    <Table.Td ta="right">
                      <Num value={r.available} kind="money" scale={moneyScaleOf(r.currency)} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num value={r.frozen} kind="money" scale={moneyScaleOf(r.currency)} opacity={0.7} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Num value={r.total} kind="money" scale={moneyScaleOf(r.currency)} />
                    </Table.Td>
                    <Table.Td ta="right">
                      <Group gap={6} justify="flex-end" wrap="nowrap">
                        <StaleBadge show={r.price_stale && !isZero(r.total)} />
                        <Num value={r.value_usdt} kind="fiat" empty={t('overview.noPrice')} />
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Group justify="flex-end">
                        <AssetActions
                          currency={r.currency}
                          from={type}
                          open={sheets.open}
                          testId={`${type}-${r.currency}`}
                        />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
          <Stack gap="sm" hiddenFrom="sm">
            {account.rows.map((r) => (
              <AssetRowCard
                key={r.currency}
                row={r}
                actions={<AssetActions currency={r.currency} from={type} open={sheets.open} />}
              />
            ))}
          </Stack>
        </>
      )}
      {sheets.node}
    </Stack>
  );
}

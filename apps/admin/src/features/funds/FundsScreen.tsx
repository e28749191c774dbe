import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ModelsTab } from './ModelsTab.tsx';
import { NavTab } from './NavTab.tsx';
import { OrdersTab } from './OrdersTab.tsx';
import { RebalancesTab } from './RebalancesTab.tsx';

/**
 * ETF model portfolios (modules/funds): the models (open or pause with a reason), every order with
 * filters, rebalances with their trades, the NAV history. Nothing here sets a price, a NAV or a weight.
 */
export default function FundsScreen() {
  const { t } = useTranslation('adminFunds');
  return (
    <Stack data-testid="funds-screen">
      <Title order={2}>{t('title')}</Title>
      <Alert color="gray" variant="light" data-testid="funds-no-control">
        <Text size="sm">{t('noControl')}</Text>
      </Alert>
      <Tabs defaultValue="models" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="models">{t('tabs.models')}</Tabs.Tab>
          <Tabs.Tab value="orders" data-testid="funds-tab-orders">
            {t('tabs.orders')}
          </Tabs.Tab>
          <Tabs.Tab value="rebalances" data-testid="funds-tab-rebalances">
            {t('tabs.rebalances')}
          </Tabs.Tab>
          <Tabs.Tab value="nav" data-testid="funds-tab-nav">
            {t('tabs.nav')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="models" pt="md">
          <ModelsTab />
        </Tabs.Panel>
        <Tabs.Panel value="orders" pt="md">
          <OrdersTab />
        </Tabs.Panel>
        <Tabs.Panel value="rebalances" pt="md">
          <RebalancesTab />
        </Tabs.Panel>
        <Tabs.Panel value="nav" pt="md">
          <NavTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

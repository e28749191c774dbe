import type { AdminEarnProductData, AdminEarnProductStateBody } from '@bourse/protocol';
import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../app/i18n.ts';
import { Amount, DoneNote, ErrorNote, ReasonDialog } from '../../app/ui.tsx';
import { useEarnProducts, useFundingAccounts, useProductState } from './api.ts';
import { ProductFormModal } from './ProductFormModal.tsx';
import { NoPermission, ProductStateBadge, usePermission, useRateText } from './parts.tsx';
import { actionsOf } from './productForm.ts';

type Action = AdminEarnProductStateBody['action'];

function ProductRow({
  product,
  canWrite,
  onAction,
}: {
  product: AdminEarnProductData;
  canWrite: boolean;
  onAction: (action: Action) => void;
}) {
  const { t } = useTranslation('adminEarn');
  const lang = useLang();
  const rate = useRateText();
  const cur = product.currency;
  return (
    <Table.Tr data-testid="earn-admin-product" data-product={product.product_id} data-state={product.state}>
      <Table.Td>
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            {product.names[lang]}
          </Text>
          <Text size="xs" c="dimmed">
            {t(`kind.${product.kind}`)}
            {product.vip_level !== null ? ` · VIP ${product.vip_level}` : ''} · {cur} · {product.product_id}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>{t('products.days', { days: product.term_days })}</Table.Td>
      <Table.Td>
        {rate(product.annual_rate)} · {rate(product.daily_rate)}
      </Table.Td>
      <Table.Td>
        <Amount value={product.capacity} currency={cur} />
      </Table.Td>
      <Table.Td>
        <Amount value={product.subscribed} currency={cur} />
      </Table.Td>
      <Table.Td data-testid="earn-admin-capacity-left">
        <Amount value={product.capacity_left} currency={cur} />
      </Table.Td>
      <Table.Td data-testid="earn-admin-reserved">
        <Amount value={product.reserved} currency={cur} />
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          <Amount value={product.funding_available} currency={cur} />
          <Text size="xs" c="dimmed">
            {product.funding_account.name}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>{product.orders_running}</Table.Td>
      <Table.Td>
        <Amount value={product.rewards_paid} currency={cur} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <ProductStateBadge state={product.state} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {canWrite ? (
          <Group gap={4} wrap="nowrap">
            {actionsOf(product.state).map((action) => (
              <Button
                key={action}
                size="compact-xs"
                variant={action === 'close' ? 'light' : 'default'}
                color={action === 'close' ? 'red' : undefined}
                onClick={() => onAction(action)}
                data-testid={`earn-product-${action}`}
              >
                {t(`products.${action}`)}
              </Button>
            ))}
          </Group>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

/** Earn products with their reserve coverage; create (draft), open, pause, close — each with a reason. */
export default function ProductsScreen() {
  const { t } = useTranslation('adminEarn');
  const lang = useLang();
  const products = useEarnProducts();
  const funding = useFundingAccounts();
  const changeState = useProductState();
  const write = usePermission('earn.write');
  const [creating, setCreating] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [acting, setActing] = useState<{ product: AdminEarnProductData; action: Action } | null>(null);
  const items = products.data?.items ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('products.title')}</Title>
        <Group>
          <Button variant="default" size="xs" onClick={() => void products.refetch()}>
            {t('common.refresh')}
          </Button>
          {write.allowed ? (
            <Button size="xs" onClick={() => setCreating(true)} data-testid="earn-product-new">
              {t('products.new')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('products.intro')}
      </Text>
      {!write.allowed ? <NoPermission permission="earn.write" /> : null}
      <DoneNote onClose={() => setNote(null)} data-testid="earn-admin-note">
        {note}
      </DoneNote>
      <ErrorNote error={products.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={1200}>
            <Table fz="sm" verticalSpacing={6} striped data-testid="earn-admin-products">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('products.name')}</Table.Th>
                  <Table.Th>{t('products.term')}</Table.Th>
                  <Table.Th>{t('products.rate')}</Table.Th>
                  <Table.Th>{t('products.capacity')}</Table.Th>
                  <Table.Th>{t('products.subscribed')}</Table.Th>
                  <Table.Th>{t('products.capacityLeft')}</Table.Th>
                  <Table.Th>{t('products.reserved')}</Table.Th>
                  <Table.Th>{t('products.fundingAvailable')}</Table.Th>
                  <Table.Th>{t('products.running')}</Table.Th>
                  <Table.Th>{t('products.rewardsPaid')}</Table.Th>
                  <Table.Th>{t('products.state')}</Table.Th>
                  <Table.Th>{t('products.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((p) => (
                  <ProductRow
                    key={p.product_id}
                    product={p}
                    canWrite={write.allowed}
                    onAction={(action) => setActing({ product: p, action })}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <ProductFormModal
        opened={creating}
        onClose={() => setCreating(false)}
        funding={funding.data?.items ?? []}
        onCreated={(id) => {
          setCreating(false);
          setNote(t('form.created', { id }));
        }}
      />
      <ReasonDialog
        opened={acting !== null}
        title={
          acting
            ? t('products.confirmTitle', {
                action: t(`products.${acting.action}`),
                name: acting.product.names[lang],
              })
            : ''
        }
        text={
          acting
            ? t(
                acting.action === 'open'
                  ? 'products.confirmOpen'
                  : acting.action === 'pause'
                    ? 'products.confirmPause'
                    : 'products.confirmClose',
              )
            : undefined
        }
        confirmLabel={acting ? t(`products.${acting.action}`) : ''}
        danger={acting?.action === 'close'}
        onClose={() => setActing(null)}
        onSubmit={async (reason) => {
          if (!acting) return;
          const product = await changeState.mutateAsync({
            id: acting.product.product_id,
            action: acting.action,
            reason,
          });
          setNote(t('products.changed', { state: t(`state.${product.state}`) }));
        }}
      />
    </Stack>
  );
}

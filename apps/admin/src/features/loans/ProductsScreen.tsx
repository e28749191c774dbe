import { type AdminLoanProductData, LOAN_LIMITS } from '@bourse/protocol';
import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../app/i18n.ts';
import { DoneNote, ErrorNote, ReasonDialog } from '../../app/ui.tsx';
import { useLoanProducts, useProductState } from './api.ts';
import { ProductFormModal } from './ProductFormModal.tsx';
import { NoPermission, Usdt, useLoanStaff, WRITE_PERMISSION } from './parts.tsx';

type Acting = { product: AdminLoanProductData; action: 'open' | 'pause' };

/** Pause or open a product, with a reason (running loans keep their terms). */
function ProductStateDialog(props: {
  acting: Acting | null;
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  const state = useProductState();
  const { acting } = props;
  return (
    <ReasonDialog
      opened={acting !== null}
      title={acting ? t(`products.${acting.action}Title`, { name: acting.product.names[lang] }) : ''}
      text={acting ? t(`products.${acting.action}Text`) : undefined}
      confirmLabel={acting ? t(`products.${acting.action}`) : ''}
      danger={acting?.action === 'pause'}
      onClose={props.onClose}
      onSubmit={async (reason) => {
        if (!acting) return;
        if (reason.trim().length < LOAN_LIMITS.reasonMin)
          throw new Error(t('common.reasonShort', { min: LOAN_LIMITS.reasonMin }));
        const p = await state.mutateAsync({
          id: acting.product.product_id,
          action: acting.action,
          reason: reason.trim(),
        });
        props.onDone(t('products.stateDone', { name: p.names[lang], state: t(`productState.${p.state}`) }));
      }}
    />
  );
}

/** Loan products: figures and lender; create one (refused before saving outside the caps); pause or open, with a reason. */
export default function ProductsScreen() {
  const { t } = useTranslation('adminLoans');
  const lang = useLang();
  const products = useLoanProducts();
  const { canWrite } = useLoanStaff();
  const [creating, setCreating] = useState(false);
  const [acting, setActing] = useState<Acting | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const items = products.data?.items ?? [];
  const heads = [
    'name',
    'state',
    'amounts',
    'terms',
    'daily',
    'free',
    'overdue',
    'lateFee',
    'lender',
    'actions',
  ] as const;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('products.title')}</Title>
        <Group>
          <Button variant="default" size="xs" onClick={() => void products.refetch()}>
            {t('common.refresh')}
          </Button>
          {canWrite ? (
            <Button size="xs" onClick={() => setCreating(true)} data-testid="loans-product-new">
              {t('products.new')}
            </Button>
          ) : null}
        </Group>
      </Group>
      <Text size="sm" c="dimmed">
        {t('products.intro')}
      </Text>
      {!canWrite ? <NoPermission permission={WRITE_PERMISSION} /> : null}
      <DoneNote onClose={() => setNote(null)} data-testid="loans-note">
        {note}
      </DoneNote>
      <ErrorNote error={products.error} />
      <Card withBorder>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('common.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={1100}>
            <Table fz="sm" striped data-testid="loans-products">
              <Table.Thead>
                <Table.Tr>
                  {heads.map((h) => (
                    <Table.Th key={h}>{t(`products.${h}`)}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((p) => (
                  <Table.Tr
                    key={p.product_id}
                    data-testid="loans-product"
                    data-product={p.product_id}
                    data-state={p.state}
                  >
                    <Table.Td>
                      <Text size="sm">{p.names[lang]}</Text>
                      <Text size="xs" c="dimmed">
                        {p.product_id}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={p.state === 'active' ? 'teal' : 'gray'}>
                        {t(`productState.${p.state}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Usdt value={p.amount_min} /> – <Usdt value={p.amount_max} />
                    </Table.Td>
                    <Table.Td>{p.term_days.join(', ')}</Table.Td>
                    <Table.Td>{`${p.daily_rate}%`}</Table.Td>
                    <Table.Td>{p.interest_free_days}</Table.Td>
                    <Table.Td>{`${p.overdue_rate}%`}</Table.Td>
                    <Table.Td>
                      <Usdt value={p.late_fee} />
                    </Table.Td>
                    <Table.Td>{p.lender.name}</Table.Td>
                    <Table.Td>
                      {canWrite ? (
                        <Button
                          size="compact-xs"
                          variant="light"
                          color={p.state === 'active' ? 'red' : undefined}
                          onClick={() =>
                            setActing({ product: p, action: p.state === 'active' ? 'pause' : 'open' })
                          }
                          data-testid={`loans-product-${p.state === 'active' ? 'pause' : 'open'}`}
                        >
                          {t(`products.${p.state === 'active' ? 'pause' : 'open'}`)}
                        </Button>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <ProductFormModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(p) => {
          setCreating(false);
          setNote(t('products.created', { name: p.names[lang], id: p.product_id }));
        }}
      />
      <ProductStateDialog acting={acting} onClose={() => setActing(null)} onDone={setNote} />
    </Stack>
  );
}

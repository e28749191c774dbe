import type { AdjustmentView as Adjustment } from '@bourse/protocol';
import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatTime, useLang } from '../../app/i18n.ts';
import { Amount, Figure } from '../../app/ui.tsx';

const STATUS_COLOR = { pending: 'yellow', posted: 'green', rejected: 'gray' } as const;

/** Adjustments with their maker, checker and status; decide buttons when `onDecide` is given. */
export function AdjustmentsTable(props: {
  list: Adjustment[];
  names: Record<string, string>;
  myId?: string;
  onDecide?: (adjustment: Adjustment, decision: 'approve' | 'reject') => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const name = (id: string | null) => (id ? (props.names[id] ?? id) : '—');
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table striped data-testid="adjustments-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('common.time')}</Table.Th>
            <Table.Th>{t('adjustments.customer')}</Table.Th>
            <Table.Th ta="right">{t('adjustments.amount')}</Table.Th>
            <Table.Th ta="right">{t('adjustments.value')}</Table.Th>
            <Table.Th>{t('adjustments.reason')}</Table.Th>
            <Table.Th>{t('adjustments.maker')}</Table.Th>
            <Table.Th>{t('common.status')}</Table.Th>
            {props.onDecide ? (
              <Table.Th>{t('common.actions')}</Table.Th>
            ) : (
              <Table.Th>{t('adjustments.checker')}</Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.list.map((a) => (
            <Table.Tr key={a.adjustment_id} data-testid="adjustment-row">
              <Table.Td>
                <Figure>{formatTime(a.created_at, lang)}</Figure>
              </Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace">
                  {a.customer_id}
                </Text>
                <Text size="xs" c="dimmed">
                  {
                    t(`adjustments.accountTypes.${a.account_type}` as never, {
                      defaultValue: a.account_type,
                    }) as string
                  }
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                <Amount
                  value={a.direction === 'credit' ? a.amount : `-${a.amount}`}
                  currency={a.currency}
                  signed
                  suffix
                />
              </Table.Td>
              <Table.Td ta="right">
                {a.value_usdt === null ? (
                  <Figure>{t('adjustments.noValue')}</Figure>
                ) : (
                  <Amount value={a.value_usdt} currency="USDT" />
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{a.reason}</Text>
                {a.decision_reason ? (
                  <Text size="xs" c="dimmed">
                    {a.decision_reason}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{name(a.maker_id)}</Text>
              </Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[a.status]} variant="light">
                  {t(`adjustments.status.${a.status}`)}
                </Badge>
              </Table.Td>
              {props.onDecide ? (
                <Table.Td>
                  {a.status !== 'pending' ? (
                    <Text size="sm">{name(a.checker_id)}</Text>
                  ) : a.maker_id === props.myId ? (
                    <Text size="xs" c="dimmed">
                      {t('adjustments.yours')}
                    </Text>
                  ) : (
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="xs"
                        onClick={() => props.onDecide?.(a, 'approve')}
                        data-testid="adjustment-approve"
                      >
                        {t('adjustments.approve')}
                      </Button>
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        onClick={() => props.onDecide?.(a, 'reject')}
                      >
                        {t('adjustments.reject')}
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              ) : (
                <Table.Td>
                  <Text size="sm">{name(a.checker_id)}</Text>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

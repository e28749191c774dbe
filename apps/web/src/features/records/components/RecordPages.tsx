import { Stack } from '@mantine/core';
import { RecordList } from './RecordList.tsx';

/** One screen per record route of the spec; each is the generic list with its kind. */
function Screen({
  kind,
  accountFilter,
}: {
  kind: Parameters<typeof RecordList>[0]['kind'];
  accountFilter?: boolean;
}) {
  return (
    <Stack py={{ base: 'md', sm: 32 }} data-testid={`records-page-${kind}`}>
      <RecordList kind={kind} accountFilter={accountFilter} />
    </Stack>
  );
}

/** `/record`: every journal entry of the customer's accounts. */
export function RecordPage() {
  return <Screen kind="all" accountFilter />;
}
/** `/moneyRecord`: deposits, withdrawals, transfers and adjustments. */
export function MoneyRecordPage() {
  return <Screen kind="money" accountFilter />;
}
/** `/accountRecord`: the journal per account type. */
export function AccountRecordPage() {
  return <Screen kind="account" accountFilter />;
}
/** `/deallog`: trading entries (fills, fees, settlements). */
export function DealLogPage() {
  return <Screen kind="deal" accountFilter />;
}
/** `/rechargeRecord` and `/cbjl`: crypto and bank deposits with their status. */
export function RechargeRecordPage() {
  return <Screen kind="recharge" />;
}

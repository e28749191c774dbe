import { SimpleGrid, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { BoundAddPage, BoundItem, BoundListPage } from '../../../shared/payee/BoundAccounts.tsx';
import { BANK_FIELDS, type BankCard, type BankField, useAddBank, useBanks, useDeleteBank } from '../api.ts';

const KEY: Record<
  BankField,
  | 'bankName'
  | 'bankAccount'
  | 'cardNumber'
  | 'swiftCode'
  | 'routingNumber'
  | 'bankAddress'
  | 'bankPhone'
  | 'payeeName'
  | 'payeePhone'
  | 'payeeAddress'
> = {
  bank_name: 'bankName',
  bank_account: 'bankAccount',
  card_number: 'cardNumber',
  swift_code: 'swiftCode',
  routing_number: 'routingNumber',
  bank_address: 'bankAddress',
  bank_phone: 'bankPhone',
  payee_name: 'payeeName',
  payee_phone: 'payeePhone',
  payee_address: 'payeeAddress',
};
const REQUIRED: ReadonlySet<BankField> = new Set(['bank_name', 'card_number', 'payee_name']);
const MAX: Record<BankField, number> = {
  bank_name: 64,
  bank_account: 64,
  card_number: 40,
  swift_code: 11,
  routing_number: 9,
  bank_address: 128,
  bank_phone: 20,
  payee_name: 64,
  payee_phone: 20,
  payee_address: 128,
};

function CardItem({ card }: { card: BankCard }) {
  const { t } = useTranslation('withdraw');
  const del = useDeleteBank();
  return (
    <BoundItem
      testId="bank-row"
      deleting={del.isPending}
      onDelete={() =>
        del.mutate(card.id, { onSuccess: () => notifications.show({ message: t('bank.deleted') }) })
      }
    >
      <Text fw={700}>{card.bank_name}</Text>
      <Text ff="monospace" size="lg" data-testid="bank-card-number">
        {card.card_number}
      </Text>
      <Text size="sm" c="dimmed">
        {card.payee_name}
        {card.swift_code ? ` · SWIFT ${card.swift_code}` : ''}
      </Text>
    </BoundItem>
  );
}

/** /bank: bound bank cards, masked (the server never answers with a full number). */
export function BankPage() {
  const { t } = useTranslation('withdraw');
  const banks = useBanks();
  return (
    <BoundListPage
      testId="bank-page"
      title={t('bank.title')}
      intro={t('bank.intro')}
      addTo="/bankAdd"
      addLabel={t('bank.add')}
      addTestId="bank-add"
      list={banks.isLoading ? undefined : banks.data?.list}
      emptyText={t('bank.empty')}
      emptyTestId="bank-empty"
      listTestId="bank-list"
      renderItem={(card) => <CardItem key={card.id} card={card} />}
    />
  );
}

function clientError(field: BankField, value: string, t: (k: string) => string): string | null {
  const v = value.trim();
  if (REQUIRED.has(field) && v === '') return t('common.required');
  if (v === '') return null;
  if (field === 'card_number' && !/^[A-Za-z0-9]{8,34}$/.test(v.replace(/[\s-]/g, '')))
    return t('bank.errors.cardNumber');
  if (field === 'swift_code' && !/^[A-Za-z]{6}[A-Za-z0-9]{2}([A-Za-z0-9]{3})?$/.test(v))
    return t('bank.errors.swiftCode');
  if (field === 'routing_number' && !/^\d{9}$/.test(v)) return t('bank.errors.routingNumber');
  if ((field === 'bank_phone' || field === 'payee_phone') && !/^\+?[0-9 -]{5,20}$/.test(v))
    return t('bank.errors.phone');
  return null;
}

/** /bankAdd: bind a card; every field is sealed on the server, only the last 4 ever come back. */
export function BankAddPage() {
  const { t } = useTranslation('withdraw');
  const navigate = useNavigate();
  const add = useAddBank();
  const [values, setValues] = useState<Record<BankField, string>>(
    () => Object.fromEntries(BANK_FIELDS.map((f) => [f, ''])) as Record<BankField, string>,
  );
  const [errors, setErrors] = useState<Partial<Record<BankField, string>>>({});
  const tt = t as unknown as (k: string) => string;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<BankField, string>> = {};
    for (const f of BANK_FIELDS) {
      const e = clientError(f, values[f], tt);
      if (e) found[f] = e;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    add.mutate(values, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: t('bank.saved') });
        navigate('/bank');
      },
    });
  };

  return (
    <BoundAddPage
      testId="bank-add-page"
      maw={880}
      title={t('bank.addTitle')}
      subtitle={t('bank.encrypted')}
      onSubmit={submit}
      error={add.error}
      errorTestId="bank-error"
      cancelTo="/bank"
      submitting={add.isPending}
      submitTestId="bank-submit"
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {BANK_FIELDS.map((f) => (
          <TextInput
            key={f}
            label={t(`bank.fields.${KEY[f]}`)}
            withAsterisk={REQUIRED.has(f)}
            value={values[f]}
            maxLength={MAX[f]}
            autoComplete="off"
            inputMode={f === 'routing_number' || f.endsWith('phone') ? 'tel' : undefined}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setValues((x) => ({ ...x, [f]: v }));
              setErrors((x) => ({ ...x, [f]: undefined }));
            }}
            error={errors[f]}
            data-testid={`bank-${f}`}
          />
        ))}
      </SimpleGrid>
    </BoundAddPage>
  );
}

import { C2C_LIMITS, C2C_METHODS, type C2cMerchantData, type C2cOfferData } from '@bourse/protocol';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../app/api.ts';
import { ErrorNote } from '../../app/ui.tsx';
import { useSaveOffer } from './api.ts';
import { emptyOfferForm, fieldsOfRefusal, type OfferForm, offerBody, offerFormOf } from './offerForm.ts';

function refusedFields(error: unknown): string[] {
  if (!(error instanceof ApiError) || error.reason !== 'C2C_OFFER_INVALID') return [];
  return fieldsOfRefusal(error.params?.field);
}

type Setter = <K extends keyof OfferForm>(key: K, value: OfferForm[K]) => void;

function MethodsFields({ form, set, bad }: { form: OfferForm; set: Setter; bad: Set<string> }) {
  const { t } = useTranslation('adminC2c');
  return (
    <Stack gap="xs" data-testid="c2c-offer-methods">
      <Text size="sm" fw={500} c={bad.has('methods') ? 'red' : undefined}>
        {t('offerForm.methods', { max: C2C_LIMITS.methodsPerOfferMax })}
      </Text>
      {C2C_METHODS.map((m) => {
        const f = form.methods[m];
        const change = (patch: Partial<typeof f>) =>
          set('methods', { ...form.methods, [m]: { ...f, ...patch } });
        return (
          <Group key={m} align="flex-end" wrap="nowrap" data-method={m}>
            <Checkbox
              w={140}
              label={t(`method.${m}`)}
              checked={f.on}
              onChange={(e) => change({ on: e.currentTarget.checked })}
              data-testid={`c2c-offer-method-${m}`}
            />
            <TextInput
              label={t('offerForm.window')}
              description={t('offerForm.windowHint', {
                min: C2C_LIMITS.paymentWindowMinutesMin,
                max: C2C_LIMITS.paymentWindowMinutesMax,
              })}
              disabled={!f.on}
              value={f.window}
              onChange={(e) => change({ window: e.currentTarget.value })}
              error={bad.has(`window.${m}`)}
              inputMode="numeric"
              data-testid={`c2c-offer-window-${m}`}
            />
            <TextInput
              label={t('offerForm.cap', { coin: form.coin })}
              description={t('offerForm.capHint')}
              disabled={!f.on}
              value={f.cap}
              onChange={(e) => change({ cap: e.currentTarget.value })}
              error={bad.has(`cap.${m}`)}
              inputMode="decimal"
              data-testid={`c2c-offer-cap-${m}`}
            />
          </Group>
        );
      })}
    </Stack>
  );
}

function PairFields(props: {
  form: OfferForm;
  set: Setter;
  bad: Set<string>;
  editing: boolean;
  merchants: C2cMerchantData[];
}) {
  const { t } = useTranslation('adminC2c');
  const { form, set, bad, editing } = props;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Select
        label={t('offerForm.merchant')}
        data={props.merchants.map((m) => ({
          value: m.merchant_id,
          label: `${m.name} (${m.uid ?? m.merchant_id}) · ${t(`merchantState.${m.state}`)}`,
        }))}
        value={form.merchantId || null}
        onChange={(v) => set('merchantId', v ?? '')}
        disabled={editing}
        error={bad.has('merchant_id')}
        comboboxProps={{ withinPortal: false }}
        data-testid="c2c-offer-merchant"
      />
      <Select
        label={t('offerForm.side')}
        data={(['buy', 'sell'] as const).map((s) => ({ value: s, label: t(`side.${s}`) }))}
        value={form.side}
        onChange={(v) => set('side', v === 'sell' ? 'sell' : 'buy')}
        disabled={editing}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
        data-testid="c2c-offer-side"
      />
      <TextInput
        label={t('offerForm.coin')}
        value={form.coin}
        onChange={(e) => set('coin', e.currentTarget.value.toUpperCase())}
        disabled={editing}
        error={bad.has('coin')}
        maxLength={10}
        data-testid="c2c-offer-coin"
      />
      <TextInput
        label={t('offerForm.fiat')}
        value={form.fiat}
        onChange={(e) => set('fiat', e.currentTarget.value.toUpperCase())}
        disabled={editing}
        error={bad.has('fiat')}
        maxLength={3}
        data-testid="c2c-offer-fiat"
      />
    </SimpleGrid>
  );
}

function PriceFields({ form, set, bad }: { form: OfferForm; set: Setter; bad: Set<string> }) {
  const { t } = useTranslation('adminC2c');
  return (
    <Stack gap="xs">
      <SegmentedControl
        value={form.priceKind}
        onChange={(v) => set('priceKind', v === 'spread' ? 'spread' : 'fixed')}
        data={[
          { value: 'fixed', label: t('priceKind.fixed') },
          { value: 'spread', label: t('priceKind.spread') },
        ]}
        data-testid="c2c-offer-price-kind"
      />
      {form.priceKind === 'fixed' ? (
        <TextInput
          label={t('offerForm.price', { fiat: form.fiat, coin: form.coin })}
          value={form.price}
          onChange={(e) => set('price', e.currentTarget.value)}
          error={bad.has('price')}
          inputMode="decimal"
          data-testid="c2c-offer-price"
        />
      ) : (
        <TextInput
          label={t('offerForm.spread')}
          description={t('offerForm.spreadHint')}
          value={form.spreadBps}
          onChange={(e) => set('spreadBps', e.currentTarget.value)}
          error={bad.has('spread_bps') || bad.has('price_kind')}
          inputMode="numeric"
          data-testid="c2c-offer-spread"
        />
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {(
          [
            ['min', 'min_amount'],
            ['max', 'max_amount'],
            ['total', 'total_amount'],
          ] as const
        ).map(([key, field]) => (
          <TextInput
            key={key}
            label={t(`offerForm.${key}`, { coin: form.coin })}
            value={form[key]}
            onChange={(e) => set(key, e.currentTarget.value)}
            error={bad.has(field)}
            inputMode="decimal"
            data-testid={`c2c-offer-${key}`}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** Create an offer for a merchant, or change one (its merchant, side, coin and fiat stay). */
export function OfferFormModal(props: {
  opened: boolean;
  offer: C2cOfferData | null;
  merchants: C2cMerchantData[];
  onClose: () => void;
  onSaved: (text: string) => void;
}) {
  const { t } = useTranslation('adminC2c');
  const save = useSaveOffer();
  const editing = props.offer !== null;
  const [form, setForm] = useState<OfferForm>(emptyOfferForm);
  const [bad, setBad] = useState<Set<string>>(new Set());
  const { opened, offer } = props;
  const reset = save.reset;
  useEffect(() => {
    if (!opened) return;
    setForm(offer ? offerFormOf(offer) : emptyOfferForm());
    setBad(new Set());
    reset();
  }, [opened, offer, reset]);
  const set: Setter = (key, value) => setForm((f) => ({ ...f, [key]: value }));
  const submit = () => {
    const { body, bad: problems } = offerBody(form, editing);
    setBad(problems);
    if (!body) return;
    save.mutate(
      { id: props.offer?.offer_id ?? null, body },
      {
        onSuccess: (done) => {
          props.onSaved(
            t(editing ? 'offerForm.updated' : 'offerForm.created', {
              id: done.offer_id,
              coin: form.coin,
              fiat: form.fiat,
            }),
          );
          props.onClose();
        },
        onError: (error) => setBad(new Set(refusedFields(error))),
      },
    );
  };
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={
        editing ? t('offerForm.editTitle', { id: props.offer?.offer_id ?? '' }) : t('offerForm.newTitle')
      }
      size="xl"
      centered
    >
      <Stack data-testid="c2c-offer-form" data-editing={editing ? 'true' : 'false'}>
        <Text size="sm" c="dimmed">
          {t('offerForm.intro')}
        </Text>
        <PairFields form={form} set={set} bad={bad} editing={editing} merchants={props.merchants} />
        <Title order={6}>{t('offerForm.sectionPrice')}</Title>
        <PriceFields form={form} set={set} bad={bad} />
        <Title order={6}>{t('offerForm.sectionMethods')}</Title>
        <MethodsFields form={form} set={set} bad={bad} />
        <Textarea
          label={t('offerForm.terms')}
          value={form.terms}
          onChange={(e) => set('terms', e.currentTarget.value)}
          error={bad.has('terms')}
          maxLength={C2C_LIMITS.termsMax}
          autosize
          minRows={2}
          data-testid="c2c-offer-terms"
        />
        <Textarea
          label={t('common.reason')}
          value={form.reason}
          onChange={(e) => set('reason', e.currentTarget.value)}
          error={bad.has('reason')}
          maxLength={C2C_LIMITS.noteMax}
          autosize
          minRows={2}
          data-testid="c2c-offer-reason"
        />
        {bad.size > 0 ? (
          <Alert color="orange" variant="light" data-testid="c2c-offer-bad" data-fields={[...bad].join(' ')}>
            {t('offerForm.bad')}
          </Alert>
        ) : null}
        <ErrorNote error={save.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={save.isPending} onClick={submit} data-testid="c2c-offer-submit">
            {editing ? t('offerForm.save') : t('offerForm.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

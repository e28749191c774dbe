import type { AdminLoanProductData } from '@bourse/protocol';
import { LANGS, type Lang } from '@bourse/protocol';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNote } from '../../app/ui.tsx';
import { useActiveProfile, useCreateProduct, useLenders } from './api.ts';
import { ProductPreview } from './ProductPreview.tsx';
import { bodyOf, capsOfProfile, emptyProductForm, formProblems, type ProductForm } from './productForm.ts';

type NumberField =
  | 'amount_min'
  | 'amount_max'
  | 'term_days'
  | 'daily_rate'
  | 'interest_free_days'
  | 'overdue_rate'
  | 'late_fee'
  | 'sample_amount'
  | 'sample_term';

/** A new loan product: texts in three languages, figures, a lender, a reason; the preview shows the refusal or the quote. */
export function ProductFormModal(props: {
  opened: boolean;
  onClose: () => void;
  onCreated: (p: AdminLoanProductData) => void;
}) {
  const { t } = useTranslation('adminLoans');
  const [form, setForm] = useState<ProductForm>(emptyProductForm);
  const [bad, setBad] = useState<string[]>([]);
  const create = useCreateProduct();
  const lenders = useLenders();
  const profile = useActiveProfile();
  const active = profile.data?.active ?? null;
  // Without the profile (no risk.read) the stricter eu_retail caps are shown: nothing previewed passes that the server would refuse.
  const caps = capsOfProfile(active ?? 'eu_retail');
  const set = (patch: Partial<ProductForm>) => setForm((f) => ({ ...f, ...patch }));
  const text = (kind: 'names' | 'descriptions', lang: Lang, value: string) =>
    setForm((f) => ({ ...f, [kind]: { ...f[kind], [lang]: value } }));
  const numberInput = (field: NumberField) => (
    <TextInput
      key={field}
      label={t(`field.${field}`)}
      value={form[field]}
      onChange={(e) => set({ [field]: e.currentTarget.value })}
      error={bad.includes(field) || undefined}
      data-testid={`loans-form-${field}`}
    />
  );
  const close = () => {
    setForm(emptyProductForm());
    setBad([]);
    create.reset();
    props.onClose();
  };
  return (
    <Modal opened={props.opened} onClose={close} title={t('form.title')} size="xl" centered>
      <Stack data-testid="loans-product-form">
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {LANGS.map((lang) => (
            <Stack key={lang} gap={4}>
              <TextInput
                label={t('form.name', { lang: t(`lang.${lang}`) })}
                value={form.names[lang]}
                onChange={(e) => text('names', lang, e.currentTarget.value)}
                error={bad.includes(`names.${lang}`) || undefined}
                data-testid={`loans-form-names-${lang}`}
              />
              <Textarea
                label={t('form.description', { lang: t(`lang.${lang}`) })}
                value={form.descriptions[lang]}
                onChange={(e) => text('descriptions', lang, e.currentTarget.value)}
                error={bad.includes(`descriptions.${lang}`) || undefined}
                autosize
                minRows={2}
                data-testid={`loans-form-descriptions-${lang}`}
              />
            </Stack>
          ))}
        </SimpleGrid>
        <Select
          label={t('field.lender_id')}
          data={(lenders.data?.items ?? []).map((l) => ({
            value: l.lender_id,
            label: `${l.name} (${l.lender_id})`,
          }))}
          value={form.lender_id || null}
          onChange={(v) => set({ lender_id: v ?? '' })}
          error={bad.includes('lender_id') || undefined}
          comboboxProps={{ withinPortal: false }}
          data-testid="loans-form-lender_id"
        />
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          {(
            [
              'amount_min',
              'amount_max',
              'term_days',
              'interest_free_days',
              'daily_rate',
              'overdue_rate',
              'late_fee',
            ] as const
          ).map(numberInput)}
        </SimpleGrid>
        <SimpleGrid cols={2}>{(['sample_amount', 'sample_term'] as const).map(numberInput)}</SimpleGrid>
        <ProductPreview form={form} caps={caps} profile={active} />
        <Textarea
          label={t('common.reason')}
          value={form.reason}
          onChange={(e) => set({ reason: e.currentTarget.value })}
          error={bad.includes('reason') || undefined}
          autosize
          minRows={2}
          data-testid="loans-form-reason"
        />
        {bad.length > 0 ? (
          <Alert color="red" variant="light" p="xs" data-testid="loans-form-bad" data-fields={bad.join(',')}>
            {t('form.bad', { fields: bad.map((f) => t(`field.${f.split('.')[0] as 'names'}`)).join(', ') })}
          </Alert>
        ) : null}
        <ErrorNote error={create.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={create.isPending}
            data-testid="loans-form-submit"
            onClick={async () => {
              const problems = formProblems(form);
              setBad(problems);
              if (problems.length > 0) return;
              try {
                const product = await create.mutateAsync(bodyOf(form));
                setForm(emptyProductForm());
                props.onCreated(product);
              } catch {
                // shown by ErrorNote: the server names the field and cap it refuses
              }
            }}
          >
            {t('form.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

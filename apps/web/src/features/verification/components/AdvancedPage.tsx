import {
  type AdvancedData,
  DOCUMENT_SLOTS,
  type DocumentSlot,
  INCOME_BANDS,
  INVESTMENT_BANDS,
  type IncomeBand,
  type InvestmentBand,
  OCCUPATIONS,
  type Occupation,
  type TierView,
  VERIFICATION_LIMITS,
  WEALTH_SOURCES,
  type WealthSource,
} from '@bourse/protocol';
import { Alert, Button, Group, Paper, Select, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSubmitAdvanced } from '../api.ts';
import { documentFields, type FormMode, missingSlots, requiredSlots, slotsToReplace } from '../logic.ts';
import { DataLine, DocumentField, inSlotOrder, SubmitRefusal, TierScreen } from './parts.tsx';

type Choice<T extends string> = {
  name: string;
  values: readonly T[];
  group: 'occupation' | 'income' | 'wealth' | 'investment';
};

function ReadOnlyAdvanced({ view }: { view: TierView<'advanced'> }) {
  const { t } = useTranslation(['kyc', 'verification']);
  const data: AdvancedData | null = view.data;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="advanced-read-only">
      <Stack gap="lg">
        <Title order={2} size="h4">
          {t('form.readOnly')}
        </Title>
        {data ? (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
            <DataLine
              label={t('advanced.occupation')}
              value={t(`verification:occupation.${data.occupation}`)}
            />
            <DataLine
              label={t('advanced.monthlyIncome')}
              value={t(`verification:income.${data.monthly_income}`)}
            />
            <DataLine
              label={t('advanced.sourceOfWealth')}
              value={`${t(`verification:wealth.${data.source_of_wealth}`)}${data.wealth_note ? ` — ${data.wealth_note}` : ''}`}
            />
            <DataLine
              label={t('advanced.expectedInvestment')}
              value={t(`verification:investment.${data.expected_investment}`)}
            />
          </SimpleGrid>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          {inSlotOrder(view.documents).map((d) => (
            <DocumentField
              key={d.slot}
              slot={d.slot}
              view={view}
              flagged={false}
              readOnly
              fileId={undefined}
              onUploaded={() => {}}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

function AdvancedForm({ view, mode }: { view: TierView<'advanced'>; mode: Exclude<FormMode, 'readOnly'> }) {
  const { t } = useTranslation(['kyc', 'verification']);
  const submit = useSubmitAdvanced();
  const flagged = slotsToReplace(view);
  const previous = view.data;
  const [occupation, setOccupation] = useState<Occupation | null>(previous?.occupation ?? null);
  const [income, setIncome] = useState<IncomeBand | null>(previous?.monthly_income ?? null);
  const [wealth, setWealth] = useState<WealthSource | null>(previous?.source_of_wealth ?? null);
  const [wealthNote, setWealthNote] = useState(previous?.wealth_note ?? '');
  const [investment, setInvestment] = useState<InvestmentBand | null>(previous?.expected_investment ?? null);
  const [files, setFiles] = useState<Partial<Record<DocumentSlot, string>>>({});
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const slots = DOCUMENT_SLOTS.advanced;

  const select = <T extends string>(
    field: string,
    choice: Choice<T>,
    value: T | null,
    set: (v: T | null) => void,
  ) => (
    <Select
      label={choice.name}
      placeholder={t('advanced.choose')}
      withAsterisk
      allowDeselect={false}
      value={value}
      onChange={(next) => {
        set(choice.values.find((v) => v === next) ?? null);
        setErrors((x) => ({ ...x, [field]: null }));
      }}
      data={choice.values.map((v) => ({
        value: v,
        label: t(`verification:${choice.group}.${v}` as 'verification:occupation.other'),
      }))}
      error={errors[field]}
      comboboxProps={{ withinPortal: true }}
      data-testid={`advanced-${field}`}
    />
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string | null> = {
      occupation: occupation ? null : t('form.required'),
      monthly_income: income ? null : t('form.required'),
      source_of_wealth: wealth ? null : t('form.required'),
      expected_investment: investment ? null : t('form.required'),
    };
    for (const slot of missingSlots(requiredSlots('advanced', mode, { flagged }), files))
      found[slot] = t('form.photoRequired');
    // A new submission needs at least one proof of assets; a revision keeps the ones not flagged.
    const anyProof = slots.some((slot) => files[slot]);
    if (mode === 'new' && !anyProof) found.assets = t('advanced.atLeastOne');
    setErrors(found);
    if (Object.values(found).some(Boolean) || !occupation || !income || !wealth || !investment) return;
    submit.mutate(
      {
        occupation,
        monthly_income: income,
        source_of_wealth: wealth,
        wealth_note: wealthNote.trim() || undefined,
        expected_investment: investment,
        ...documentFields(slots, files),
      },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('form.submitted') });
          window.scrollTo({ top: 0 });
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate data-testid="advanced-form" data-mode={mode}>
      <Stack gap="lg">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {select(
              'occupation',
              { name: t('advanced.occupation'), values: OCCUPATIONS, group: 'occupation' },
              occupation,
              setOccupation,
            )}
            {select(
              'monthly_income',
              { name: t('advanced.monthlyIncome'), values: INCOME_BANDS, group: 'income' },
              income,
              setIncome,
            )}
            {select(
              'source_of_wealth',
              { name: t('advanced.sourceOfWealth'), values: WEALTH_SOURCES, group: 'wealth' },
              wealth,
              setWealth,
            )}
            {select(
              'expected_investment',
              { name: t('advanced.expectedInvestment'), values: INVESTMENT_BANDS, group: 'investment' },
              investment,
              setInvestment,
            )}
          </SimpleGrid>
          <Textarea
            mt="md"
            label={t('advanced.wealthNote')}
            value={wealthNote}
            maxLength={VERIFICATION_LIMITS.wealthNoteMax}
            autosize
            minRows={2}
            onChange={(e) => setWealthNote(e.currentTarget.value)}
            data-testid="advanced-wealth-note"
          />
        </Paper>
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="md">
            <Stack gap={2}>
              <Title order={2} size="h4">
                {t('advanced.assets')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('advanced.assetsRule')}
              </Text>
            </Stack>
            <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="lg">
              {slots.map((slot) => (
                <DocumentField
                  key={slot}
                  slot={slot}
                  view={view}
                  flagged={flagged.includes(slot)}
                  readOnly={false}
                  fileId={files[slot]}
                  onUploaded={(id) => {
                    setFiles((x) => ({ ...x, [slot]: id }));
                    setErrors((x) => ({ ...x, [slot]: null, assets: null }));
                  }}
                  error={errors[slot]}
                />
              ))}
            </SimpleGrid>
            {errors.assets ? (
              <Alert color="red" variant="light" p="xs" role="alert" data-testid="advanced-assets-error">
                {errors.assets}
              </Alert>
            ) : null}
          </Stack>
        </Paper>
        <SubmitRefusal error={submit.error} />
        <Group justify="flex-end">
          <Button type="submit" size="md" loading={submit.isPending} data-testid="advanced-submit">
            {t('form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /authenticationhigh and /seniorauth: advanced verification — occupation, income, wealth, investment, proof of assets. */
export function AdvancedPage() {
  return (
    <TierScreen
      tier="advanced"
      readOnly={(view) => <ReadOnlyAdvanced view={view} />}
      form={(view, mode) => <AdvancedForm view={view} mode={mode} />}
    />
  );
}

import {
  type DocumentSlot,
  ID_TYPE_VALUES,
  ID_TYPES,
  type IdType,
  type Lang,
  LOCALE_OF,
  type PrimaryData,
  type TierView,
} from '@bourse/protocol';
import {
  Alert,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { getCountries } from 'libphonenumber-js/max';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, regionName } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useSubmitPrimary } from '../api.ts';
import {
  checkIdNumber,
  checkNationality,
  checkRealName,
  documentFields,
  type FieldError,
  type FormMode,
  missingSlots,
  mustChooseNationality,
  nationalityField,
  nationalityOptions,
  primarySlots,
  requiredSlots,
  slotsToReplace,
} from '../logic.ts';
import { DataLine, DocumentField, HandheldSample, inSlotOrder, SubmitRefusal, TierScreen } from './parts.tsx';

/** The country of registration by name (a code the browser cannot name stays a code; none is a dash). */
function countryName(code: string, lang: Lang): string {
  return /^[A-Z]{2}$/.test(code) ? regionName(code, lang) : code || '—';
}

/**
 * Nationality: the recorded one, read only; or — for an account registered without one — a choice
 * made once, among the register form's countries, sent with the submission.
 */
function NationalityField({
  recorded,
  chosen,
  onChoose,
  error,
}: {
  recorded: string;
  chosen: string | null;
  onChoose: (country: string) => void;
  error: string | null | undefined;
}) {
  const { t } = useTranslation(['kyc', 'verification']);
  const lang = useLang();
  const options = useMemo(
    () => nationalityOptions(getCountries(), (code) => regionName(code, lang), LOCALE_OF[lang]),
    [lang],
  );
  if (!mustChooseNationality(recorded)) {
    return (
      <TextInput
        label={t('form.nationality')}
        description={t('form.nationalityFixed')}
        value={countryName(recorded, lang)}
        readOnly
        disabled
        data-testid="primary-nationality"
      />
    );
  }
  return (
    <Select
      label={t('form.nationality')}
      description={t('form.nationalityChoose')}
      withAsterisk
      data={options}
      value={chosen}
      onChange={(next) => {
        if (next) onChoose(next);
      }}
      searchable
      allowDeselect={false}
      placeholder={t('form.nationalityPlaceholder')}
      nothingFoundMessage={t('form.nationalityNothing')}
      comboboxProps={{ withinPortal: true }}
      maxDropdownHeight={280}
      autoComplete="country"
      error={error}
      data-testid="primary-nationality-choose"
    />
  );
}

/** A field error in the reader's language. */
export function useFieldError(): (error: FieldError | null) => string | null {
  const { t } = useTranslation(['kyc', 'verification']);
  return (error) => {
    if (!error) return null;
    switch (error.key) {
      case 'required':
        return t('form.required');
      case 'realNameLength':
        return t('form.realNameLength', { min: error.min, max: error.max });
      case 'idNumberInvalid':
        return t('form.idNumberInvalid', { min: error.min, max: error.max });
      case 'addressLength':
        return t('address.addressLength', { min: error.min, max: error.max });
    }
  };
}

function ReadOnlyPrimary({ view, nationality }: { view: TierView<'primary'>; nationality: string }) {
  const { t } = useTranslation(['kyc', 'verification']);
  const lang = useLang();
  const data: PrimaryData | null = view.data;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="primary-read-only">
      <Stack gap="lg">
        <Title order={2} size="h4">
          {t('form.readOnly')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
          <DataLine
            label={t('form.nationality')}
            value={countryName(data?.nationality || nationality, lang)}
          />
          <DataLine label={t('form.realName')} value={data?.real_name ?? '—'} testId="primary-real-name" />
          <DataLine
            label={t('form.idType')}
            value={data ? t(`verification:idType.${ID_TYPES[data.id_type].code}`) : '—'}
          />
          <DataLine
            label={t('form.idNumberMasked')}
            value={<span style={{ fontFamily: 'monospace' }}>{data?.id_number_masked ?? '—'}</span>}
            testId="primary-id-masked"
          />
        </SimpleGrid>
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
        {view.submitted_at !== null ? (
          <Text size="xs" c="dimmed">
            {t('submittedAt', { time: formatDateTime(view.submitted_at, lang) })}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

function PrimaryForm({
  view,
  nationality,
  mode,
}: {
  view: TierView<'primary'>;
  nationality: string;
  mode: Exclude<FormMode, 'readOnly'>;
}) {
  const { t } = useTranslation(['kyc', 'verification']);
  const fieldError = useFieldError();
  const submit = useSubmitPrimary();
  const flagged = slotsToReplace(view);
  const previous = view.data;
  const [country, setCountry] = useState<string | null>(null);
  const [realName, setRealName] = useState(previous?.real_name ?? '');
  const [idType, setIdType] = useState<IdType>(previous?.id_type ?? '1');
  const [idNumber, setIdNumber] = useState('');
  const [files, setFiles] = useState<Partial<Record<DocumentSlot, string>>>({});
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const slots = primarySlots(idType);
  const rule = ID_TYPES[idType];

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const required = requiredSlots('primary', mode, { idType, flagged });
    const found: Record<string, string | null> = {
      country: fieldError(checkNationality(nationality, country)),
      real_name: fieldError(checkRealName(realName)),
      id_number: fieldError(checkIdNumber(idType, idNumber)),
    };
    for (const slot of missingSlots(required, files)) found[slot] = t('form.photoRequired');
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    submit.mutate(
      {
        real_name: realName.trim(),
        id_type: idType,
        id_number: idNumber.trim(),
        ...nationalityField(nationality, country),
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
    <form onSubmit={onSubmit} noValidate data-testid="primary-form" data-mode={mode}>
      <Stack gap="lg">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <NationalityField
              recorded={nationality}
              chosen={country}
              onChoose={(next) => {
                setCountry(next);
                setErrors((x) => ({ ...x, country: null }));
              }}
              error={errors.country}
            />
            <TextInput
              label={t('form.realName')}
              description={t('form.realNameHint')}
              withAsterisk
              value={realName}
              maxLength={100}
              autoComplete="name"
              onChange={(e) => {
                const value = e.currentTarget.value;
                setRealName(value);
                setErrors((x) => ({ ...x, real_name: null }));
              }}
              error={errors.real_name}
              data-testid="primary-real-name-input"
            />
            <Select
              label={t('form.idType')}
              withAsterisk
              allowDeselect={false}
              value={idType}
              onChange={(value) => {
                const next = ID_TYPE_VALUES.find((v) => v === value);
                if (next) setIdType(next);
                setErrors((x) => ({ ...x, id_number: null }));
              }}
              data={ID_TYPE_VALUES.map((v) => ({
                value: v,
                label: t(`verification:idType.${ID_TYPES[v].code}`),
              }))}
              comboboxProps={{ withinPortal: true }}
              data-testid="primary-id-type"
            />
            <TextInput
              label={t('form.idNumber')}
              description={
                previous
                  ? `${t('form.idNumberAgain')} ${t('form.idNumberHint', { min: rule.min, max: rule.max })}`
                  : t('form.idNumberHint', { min: rule.min, max: rule.max })
              }
              withAsterisk
              value={idNumber}
              maxLength={40}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setIdNumber(value);
                setErrors((x) => ({ ...x, id_number: null }));
              }}
              error={errors.id_number}
              data-testid="primary-id-number"
            />
          </SimpleGrid>
        </Paper>

        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="md">
            <Stack gap={2}>
              <Title order={2} size="h4">
                {t('form.photos')}
              </Title>
              <Text size="sm" c="dimmed">
                {t('form.photosRule')}
              </Text>
            </Stack>
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
              {slots
                .filter((slot) => slot !== 'id_handheld')
                .map((slot) => (
                  <DocumentField
                    key={slot}
                    slot={slot}
                    view={view}
                    flagged={flagged.includes(slot)}
                    readOnly={false}
                    fileId={files[slot]}
                    onUploaded={(id) => {
                      setFiles((x) => ({ ...x, [slot]: id }));
                      setErrors((x) => ({ ...x, [slot]: null }));
                    }}
                    error={errors[slot]}
                  />
                ))}
            </SimpleGrid>
            <Alert color="blue" variant="light" title={t('handheld.title')}>
              <Text size="sm">{t('handheld.body')}</Text>
            </Alert>
            <DocumentField
              slot="id_handheld"
              view={view}
              flagged={flagged.includes('id_handheld')}
              readOnly={false}
              fileId={files.id_handheld}
              onUploaded={(id) => {
                setFiles((x) => ({ ...x, id_handheld: id }));
                setErrors((x) => ({ ...x, id_handheld: null }));
              }}
              error={errors.id_handheld}
              sample={<HandheldSample />}
            />
          </Stack>
        </Paper>

        <SubmitRefusal error={submit.error} />
        <Group justify="flex-end">
          <Button type="submit" size="md" loading={submit.isPending} data-testid="primary-submit">
            {t('form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /authentication and /smauth: primary verification — real name, ID and its photos; read only once sent. */
export function PrimaryPage() {
  return (
    <TierScreen
      tier="primary"
      readOnly={(view, data) => <ReadOnlyPrimary view={view} nationality={data.nationality} />}
      form={(view, mode, data) => <PrimaryForm view={view} nationality={data.nationality} mode={mode} />}
    />
  );
}

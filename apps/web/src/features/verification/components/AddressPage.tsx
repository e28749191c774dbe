import { type DocumentSlot, type TierView, VERIFICATION_LIMITS } from '@bourse/protocol';
import { Button, Group, Paper, Stack, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSubmitAddress } from '../api.ts';
import {
  checkAddress,
  documentFields,
  type FormMode,
  missingSlots,
  requiredSlots,
  slotsToReplace,
} from '../logic.ts';
import { useFieldError } from './PrimaryPage.tsx';
import { DataLine, DocumentField, SubmitRefusal, TierScreen } from './parts.tsx';

const SLOT: DocumentSlot = 'utility_bill';

function ReadOnlyAddress({ view }: { view: TierView<'address'> }) {
  const { t } = useTranslation(['kyc', 'verification']);
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="address-read-only">
      <Stack gap="lg">
        <Title order={2} size="h4">
          {t('form.readOnly')}
        </Title>
        <DataLine label={t('address.address')} value={view.data?.residential_address ?? '—'} />
        <DocumentField
          slot={SLOT}
          view={view}
          flagged={false}
          readOnly
          fileId={undefined}
          onUploaded={() => {}}
        />
      </Stack>
    </Paper>
  );
}

function AddressForm({ view, mode }: { view: TierView<'address'>; mode: Exclude<FormMode, 'readOnly'> }) {
  const { t } = useTranslation(['kyc', 'verification']);
  const fieldError = useFieldError();
  const submit = useSubmitAddress();
  const flagged = slotsToReplace(view);
  const [address, setAddress] = useState(view.data?.residential_address ?? '');
  const [files, setFiles] = useState<Partial<Record<DocumentSlot, string>>>({});
  const [errors, setErrors] = useState<Record<string, string | null>>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string | null> = { address: fieldError(checkAddress(address)) };
    for (const slot of missingSlots(requiredSlots('address', mode, { flagged }), files))
      found[slot] = t('form.photoRequired');
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    submit.mutate(
      { residential_address: address.trim(), ...documentFields([SLOT], files) },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', message: t('form.submitted') });
          window.scrollTo({ top: 0 });
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate data-testid="address-form" data-mode={mode}>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="lg">
          <Textarea
            label={t('address.address')}
            description={t('address.addressHint')}
            withAsterisk
            value={address}
            maxLength={VERIFICATION_LIMITS.addressMax}
            autosize
            minRows={2}
            autoComplete="street-address"
            onChange={(e) => {
              const value = e.currentTarget.value;
              setAddress(value);
              setErrors((x) => ({ ...x, address: null }));
            }}
            error={errors.address}
            data-testid="address-input"
          />
          <DocumentField
            slot={SLOT}
            view={view}
            flagged={flagged.includes(SLOT)}
            readOnly={false}
            fileId={files[SLOT]}
            onUploaded={(id) => {
              setFiles({ [SLOT]: id });
              setErrors((x) => ({ ...x, [SLOT]: null }));
            }}
            error={errors[SLOT]}
          />
          <SubmitRefusal error={submit.error} />
          <Group justify="flex-end">
            <Button type="submit" size="md" loading={submit.isPending} data-testid="address-submit">
              {t('form.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}

/** /dzrz: address verification — the home address and a recent utility bill. */
export function AddressPage() {
  return (
    <TierScreen
      tier="address"
      readOnly={(view) => <ReadOnlyAddress view={view} />}
      form={(view, mode) => <AddressForm view={view} mode={mode} />}
    />
  );
}

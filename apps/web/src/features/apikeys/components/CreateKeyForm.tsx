import { APIKEY_LIMITS } from '@bourse/protocol';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  PasswordInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api.ts';
import { type CreateKeyInput, useCreateApiKey, useStepUpStatus } from '../api.ts';

const EXPIRY_CHOICES = ['7', '30', '90', '180', '365'] as const;

type Fields = Omit<CreateKeyInput, 'google_code'> & { google_code: string };
const EMPTY: Fields = {
  label: '',
  permission: 'read',
  ips: '',
  expires_days: String(APIKEY_LIMITS.expiryDaysDefault),
  trade_password: '',
  google_code: '',
};

function refusal(error: unknown): string | null {
  return error instanceof ApiError ? error.message : null;
}

/** The form's state, its checks (label, six digits) and the call; `created` gets the key and secret. */
function useCreateKeyForm(onCreated: (created: { apiKey: string; secret: string }) => void) {
  const { t } = useTranslation();
  const status = useStepUpStatus();
  const create = useCreateApiKey();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<{ label?: string; trade_password?: string }>({});
  const set = (patch: Partial<Fields>) => setFields((f) => ({ ...f, ...patch }));
  const google = status.data?.google === '1';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const e: typeof errors = {};
    if (fields.label.trim() === '') e.label = t('apiKeys.create.labelRequired');
    if (!/^\d{6}$/.test(fields.trade_password)) e.trade_password = t('apiKeys.create.passwordFormat');
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    const { google_code, ...rest } = fields;
    create.mutate(google ? { ...rest, google_code } : rest, {
      onSuccess: (data) => {
        setFields(EMPTY);
        onCreated({ apiKey: data.api_key, secret: data.secret });
      },
    });
  };
  const needsTradePassword = status.data?.transaction_password === '0';
  return { fields, errors, set, google, submit, create, needsTradePassword };
}

function NeedTradePassword() {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Alert variant="light" color="yellow" data-testid="apikeys-need-trade-password">
        <Group justify="space-between">
          <Text size="sm">{t('apiKeys.create.needTradePassword')}</Text>
          <Anchor component={Link} to="/bindmpwd" size="sm">
            {t('apiKeys.create.setTradePassword')}
          </Anchor>
        </Group>
      </Alert>
    </Paper>
  );
}

/** The create form: label, permission, IP allow-list, lifetime, then the trade password (and Google code). */
export function CreateKeyForm({
  onCreated,
}: {
  onCreated: (created: { apiKey: string; secret: string }) => void;
}) {
  const { t } = useTranslation();
  const { fields, errors, set, google, submit, create, needsTradePassword } = useCreateKeyForm(onCreated);
  if (needsTradePassword) return <NeedTradePassword />;
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="form"
      onSubmit={submit}
      data-testid="apikeys-create"
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('apiKeys.create.title')}
        </Title>
        <TextInput
          label={t('apiKeys.create.label')}
          placeholder={t('apiKeys.create.labelPlaceholder')}
          value={fields.label}
          maxLength={APIKEY_LIMITS.labelMax}
          onChange={(e) => set({ label: e.currentTarget.value })}
          error={errors.label}
          data-testid="apikeys-label"
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('apiKeys.create.permission')}
          </Text>
          <SegmentedControl
            value={fields.permission}
            onChange={(v) => set({ permission: v as 'read' | 'trade' })}
            data={[
              { value: 'read', label: t('apiKeys.create.read') },
              { value: 'trade', label: t('apiKeys.create.trade') },
            ]}
            data-testid="apikeys-permission"
          />
        </Stack>
        <Textarea
          label={t('apiKeys.create.ips')}
          description={t('apiKeys.create.ipsHint')}
          value={fields.ips}
          autosize
          minRows={2}
          maxLength={APIKEY_LIMITS.ipsTextMax}
          onChange={(e) => set({ ips: e.currentTarget.value })}
          data-testid="apikeys-ips"
        />
        <Select
          label={t('apiKeys.create.expires')}
          value={fields.expires_days}
          onChange={(v) => v && set({ expires_days: v })}
          data={EXPIRY_CHOICES.map((d) => ({
            value: d,
            label: t('apiKeys.create.days', { count: Number(d) }),
          }))}
          allowDeselect={false}
          data-testid="apikeys-expires"
        />
        <PasswordInput
          label={t('apiKeys.create.tradePassword')}
          value={fields.trade_password}
          onChange={(e) => set({ trade_password: e.currentTarget.value.replace(/\D/g, '').slice(0, 6) })}
          inputMode="numeric"
          autoComplete="off"
          error={errors.trade_password}
          data-testid="apikeys-trade-password"
        />
        {google && (
          <TextInput
            label={t('apiKeys.create.googleCode')}
            value={fields.google_code}
            inputMode="numeric"
            onChange={(e) => set({ google_code: e.currentTarget.value.replace(/\D/g, '').slice(0, 6) })}
            data-testid="apikeys-google"
          />
        )}
        {refusal(create.error) && (
          <Alert color="red" variant="light" role="alert" data-testid="apikeys-error">
            {refusal(create.error)}
          </Alert>
        )}
        <Button type="submit" loading={create.isPending} data-testid="apikeys-submit">
          {t('apiKeys.create.submit')}
        </Button>
      </Stack>
    </Paper>
  );
}

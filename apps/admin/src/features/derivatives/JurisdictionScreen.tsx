import { isWholeInRange } from '@bourse/money';
import {
  type JurisdictionProfileData,
  type JurisdictionProfileId,
  LEVERAGE_CLASSES,
  type LeverageClass,
} from '@bourse/protocol';
import { Num } from '@bourse/ui';
import {
  Badge,
  Button,
  Card,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasPermission, useStaffMe } from '../../app/session.ts';
import { ErrorNote, ReasonDialog } from '../../app/ui.tsx';
import { KEYS, saveCustomJurisdiction, selectJurisdiction, useJurisdiction } from './api.ts';
import { ReasonFooter, SavedNote, useReasonForm } from './shared.tsx';

function ProfileCard(props: {
  profile: JurisdictionProfileData;
  active: boolean;
  canEdit: boolean;
  onActivate: () => void;
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  const p = props.profile;
  return (
    <Card
      withBorder
      radius="md"
      style={props.active ? { borderColor: 'var(--mantine-color-teal-6)', borderWidth: 2 } : undefined}
      data-testid="jurisdiction-profile"
      data-profile={p.id}
      data-active={props.active}
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={4}>{t(`derivatives.jurisdiction.profile.${p.id}`)}</Title>
          {props.active ? (
            <Badge color="teal" miw="max-content">
              {t('derivatives.jurisdiction.active')}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" fw={500}>
          {t('derivatives.jurisdiction.caps')}
        </Text>
        <Table withRowBorders={false} verticalSpacing={2}>
          <Table.Tbody>
            {LEVERAGE_CLASSES.map((c) => (
              <Table.Tr key={c}>
                <Table.Td>
                  <Text size="sm">{t(`derivatives.leverageClass.${c}`)}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Num size="sm" fw={600} value={p.leverage_caps[c]} suffix=":1" data-testid={`cap-${c}`} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">{t('derivatives.jurisdiction.options')}</Text>
          <Badge color={p.options_enabled ? 'teal' : 'gray'} variant="light" miw="max-content">
            {p.options_enabled ? t('derivatives.jurisdiction.on') : t('derivatives.jurisdiction.off')}
          </Badge>
        </Group>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">{t('derivatives.jurisdiction.referralDepth')}</Text>
          <Num size="sm" fw={600} value={p.referral_max_depth} data-testid="referral-depth" />
        </Group>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">{t('derivatives.jurisdiction.incentives')}</Text>
          <Badge color={p.promo_incentives ? 'teal' : 'gray'} variant="light" miw="max-content">
            {p.promo_incentives ? t('derivatives.jurisdiction.on') : t('derivatives.jurisdiction.off')}
          </Badge>
        </Group>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">{t('derivatives.jurisdiction.nbp')}</Text>
          <Badge color="teal" variant="light" miw="max-content">
            {t('derivatives.jurisdiction.always')}
          </Badge>
        </Group>
        {!p.editable ? (
          <Text size="xs" c="dimmed">
            {t('derivatives.jurisdiction.builtIn')}
          </Text>
        ) : null}
        {props.canEdit ? (
          <Group gap="xs">
            {!props.active ? (
              <Button size="xs" onClick={props.onActivate} data-testid="jurisdiction-activate">
                {t('derivatives.jurisdiction.activate')}
              </Button>
            ) : null}
            {p.editable ? (
              <Button size="xs" variant="default" onClick={props.onEdit} data-testid="jurisdiction-edit">
                {t('derivatives.jurisdiction.editCustom')}
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

function CustomDialog(props: { profile: JurisdictionProfileData; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [caps, setCaps] = useState<Record<LeverageClass, string>>(
    () =>
      Object.fromEntries(LEVERAGE_CLASSES.map((c) => [c, String(props.profile.leverage_caps[c])])) as Record<
        LeverageClass,
        string
      >,
  );
  const [options, setOptions] = useState(props.profile.options_enabled);
  const [depth, setDepth] = useState(String(props.profile.referral_max_depth));
  const [incentives, setIncentives] = useState(props.profile.promo_incentives);
  const form = useReasonForm();
  const capsOk =
    LEVERAGE_CLASSES.every((c) => isWholeInRange(caps[c], 1, 100)) && isWholeInRange(depth, 0, 4);

  const submit = () =>
    form.submit(
      capsOk,
      () =>
        saveCustomJurisdiction({
          leverage_caps: Object.fromEntries(
            LEVERAGE_CLASSES.map((c) => [c, Number.parseInt(caps[c].trim(), 10)]),
          ) as Record<LeverageClass, number>,
          options_enabled: options,
          referral_max_depth: Number.parseInt(depth.trim(), 10),
          promo_incentives: incentives,
          reason: form.reason.trim(),
        }),
      props.onSaved,
    );

  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t('derivatives.jurisdiction.customTitle')}
      size="lg"
      centered
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {LEVERAGE_CLASSES.map((c) => (
            <TextInput
              key={c}
              label={t(`derivatives.leverageClass.${c}`)}
              value={caps[c]}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setCaps((v) => ({ ...v, [c]: value }));
              }}
              inputMode="numeric"
              maxLength={3}
              rightSection={
                <Text size="xs" c="dimmed">
                  :1
                </Text>
              }
              error={!isWholeInRange(caps[c], 1, 100) ? t('derivatives.jurisdiction.capHint') : undefined}
              data-testid={`custom-cap-${c}`}
            />
          ))}
        </SimpleGrid>
        <Switch
          checked={options}
          onChange={(e) => setOptions(e.currentTarget.checked)}
          label={t('derivatives.jurisdiction.optionsSwitch')}
          data-testid="custom-options"
        />
        <TextInput
          label={t('derivatives.jurisdiction.referralDepth')}
          value={depth}
          onChange={(e) => setDepth(e.currentTarget.value)}
          inputMode="numeric"
          maxLength={1}
          error={!isWholeInRange(depth, 0, 4) ? t('derivatives.jurisdiction.referralDepthHint') : undefined}
          data-testid="custom-referral-depth"
        />
        <Switch
          checked={incentives}
          onChange={(e) => setIncentives(e.currentTarget.checked)}
          label={t('derivatives.jurisdiction.incentivesSwitch')}
          data-testid="custom-incentives"
        />
        <Group justify="space-between">
          <Text size="sm">{t('derivatives.jurisdiction.nbp')}</Text>
          <Badge color="teal" variant="light">
            {t('derivatives.jurisdiction.always')}
          </Badge>
        </Group>
        <ReasonFooter form={form} onCancel={props.onClose} onSave={submit} saveTestId="custom-save" />
      </Stack>
    </Modal>
  );
}

/**
 * Jurisdiction profiles side by side (permissive, EU retail, custom): leverage caps per class,
 * options on or off, negative-balance protection always on. Choosing the active profile and editing
 * the custom one need `markets.write` and a reason.
 */
export default function JurisdictionScreen() {
  const { t } = useTranslation();
  const me = useStaffMe();
  const client = useQueryClient();
  const jurisdiction = useJurisdiction();
  const [activating, setActivating] = useState<JurisdictionProfileId | null>(null);
  const [editing, setEditing] = useState<JurisdictionProfileData | null>(null);
  const [saved, setSaved] = useState(false);
  const canEdit = hasPermission(me.data, 'markets.write');
  const refresh = () => client.invalidateQueries({ queryKey: KEYS.jurisdiction });

  return (
    <Stack data-testid="jurisdiction-screen" data-active={jurisdiction.data?.active}>
      <Title order={2}>{t('derivatives.jurisdiction.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('derivatives.jurisdiction.intro')}
      </Text>
      <ErrorNote error={jurisdiction.error} />
      <SavedNote show={saved} onClose={() => setSaved(false)} />
      {jurisdiction.data ? (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {jurisdiction.data.profiles.map((p) => (
            <ProfileCard
              key={p.id}
              profile={p}
              active={p.id === jurisdiction.data.active}
              canEdit={canEdit}
              onActivate={() => {
                setSaved(false);
                setActivating(p.id);
              }}
              onEdit={() => {
                setSaved(false);
                setEditing(p);
              }}
            />
          ))}
        </SimpleGrid>
      ) : null}
      <ReasonDialog
        opened={activating !== null}
        title={
          activating
            ? t('derivatives.jurisdiction.activateTitle', {
                profile: t(`derivatives.jurisdiction.profile.${activating}`),
              })
            : ''
        }
        text={t('derivatives.jurisdiction.activateText')}
        confirmLabel={t('derivatives.jurisdiction.activate')}
        onClose={() => setActivating(null)}
        onSubmit={async (reason) => {
          if (!activating) return;
          await selectJurisdiction({ profile: activating, reason: reason.trim() });
          setSaved(true);
          await refresh();
        }}
      />
      {editing ? (
        <CustomDialog
          profile={editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            setSaved(true);
            await refresh();
          }}
        />
      ) : null}
    </Stack>
  );
}

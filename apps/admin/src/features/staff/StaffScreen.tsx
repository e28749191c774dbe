import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Menu,
  PasswordInput,
  SimpleGrid,
  Stack,
  Table,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api.ts';
import { formatTime, useLang } from '../../app/i18n.ts';
import { useStaffMe } from '../../app/session.ts';
import { ErrorNote, Figure, ReasonDialog } from '../../app/ui.tsx';

const ROLES = ['administrator', 'finance', 'compliance', 'support', 'content'] as const;
type Member = {
  staff_id: string;
  email: string;
  name: string;
  roles: string[];
  status: 'active' | 'disabled';
  totp_enrolled: boolean;
  locked_until: number | null;
  created_at: number;
};
type Action = { member: Member; kind: 'disable' | 'enable' | 'reset' | 'roles' };

function RolePicker({ value, onChange }: { value: string[]; onChange: (roles: string[]) => void }) {
  const { t } = useTranslation();
  return (
    <Checkbox.Group label={t('staff.roles')} value={value} onChange={onChange}>
      <Group mt={4}>
        {ROLES.map((r) => (
          <Checkbox key={r} value={r} label={t(`roles.${r}`)} />
        ))}
      </Group>
    </Checkbox.Group>
  );
}

/** Staff members: create with roles, change roles, disable/enable, reset the authenticator. */
export default function StaffScreen() {
  const { t } = useTranslation();
  const lang = useLang();
  const me = useStaffMe();
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: ['getStaffList'],
    queryFn: () => api.get<{ list: Member[] }>('getStaffList'),
  });
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [roles, setRoles] = useState<string[]>(['support']);
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState(false);
  const [busy, setBusy] = useState(false);
  const [action, setAction] = useState<Action | null>(null);
  const [newRoles, setNewRoles] = useState<string[]>([]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['getStaffList'] });

  async function create(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setCreated(false);
    try {
      await api.post('createStaff', { email, name, password, roles: roles.join(',') });
      setCreated(true);
      setEmail('');
      setName('');
      setPassword('');
      await refresh();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const titles = {
    disable: 'staff.disableTitle',
    enable: 'staff.enableTitle',
    reset: 'staff.resetTitle',
    roles: 'staff.rolesTitle',
  } as const;
  const labels = {
    disable: 'staff.disable',
    enable: 'staff.enable',
    reset: 'staff.resetTotp',
    roles: 'staff.setRoles',
  } as const;

  return (
    <Stack>
      <Title order={2}>{t('staff.title')}</Title>
      <Card withBorder>
        <Title order={4} mb="sm">
          {t('staff.create')}
        </Title>
        <form onSubmit={create}>
          <Stack>
            <SimpleGrid cols={{ base: 1, md: 3 }}>
              <TextInput
                label={t('staff.email')}
                type="email"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                required
              />
              <TextInput
                label={t('staff.name')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                required
                maxLength={80}
              />
              <PasswordInput
                label={t('staff.password')}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                required
                autoComplete="new-password"
              />
            </SimpleGrid>
            <RolePicker value={roles} onChange={setRoles} />
            <ErrorNote error={error} />
            {created ? (
              <Alert color="green" variant="light">
                {t('staff.created')}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={busy} disabled={roles.length === 0}>
                {t('staff.create')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      <ErrorNote error={members.error} />
      {members.data ? (
        <Table.ScrollContainer minWidth={860}>
          <Table striped data-testid="staff-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('staff.email')}</Table.Th>
                <Table.Th>{t('staff.name')}</Table.Th>
                <Table.Th>{t('staff.roles')}</Table.Th>
                <Table.Th>{t('common.status')}</Table.Th>
                <Table.Th>{t('staff.totp')}</Table.Th>
                <Table.Th>{t('common.time')}</Table.Th>
                <Table.Th>{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.list.map((m) => {
                const self = m.staff_id === me.data?.staff_id;
                return (
                  <Table.Tr key={m.staff_id}>
                    <Table.Td>
                      {m.email}
                      {self ? ` (${t('staff.you')})` : ''}
                    </Table.Td>
                    <Table.Td>{m.name}</Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {m.roles.map((r) => (
                          <Badge key={r} variant="light" size="sm">
                            {t(`roles.${r}` as never, { defaultValue: r }) as string}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={m.status === 'active' ? 'green' : 'red'} variant="light">
                        {t(`staff.status.${m.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{m.totp_enrolled ? t('staff.enrolled') : t('staff.notEnrolled')}</Table.Td>
                    <Table.Td>
                      <Figure>{formatTime(m.created_at, lang)}</Figure>
                    </Table.Td>
                    <Table.Td>
                      {self ? null : (
                        <Menu position="bottom-end">
                          <Menu.Target>
                            <Button size="xs" variant="default">
                              {t('common.actions')}
                            </Button>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item
                              onClick={() => {
                                setNewRoles(m.roles);
                                setAction({ member: m, kind: 'roles' });
                              }}
                            >
                              {t('staff.setRoles')}
                            </Menu.Item>
                            <Menu.Item onClick={() => setAction({ member: m, kind: 'reset' })}>
                              {t('staff.resetTotp')}
                            </Menu.Item>
                            {m.status === 'active' ? (
                              <Menu.Item
                                color="red"
                                onClick={() => setAction({ member: m, kind: 'disable' })}
                              >
                                {t('staff.disable')}
                              </Menu.Item>
                            ) : (
                              <Menu.Item onClick={() => setAction({ member: m, kind: 'enable' })}>
                                {t('staff.enable')}
                              </Menu.Item>
                            )}
                          </Menu.Dropdown>
                        </Menu>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <ReasonDialog
        opened={action !== null}
        title={action ? t(titles[action.kind], { email: action.member.email }) : ''}
        confirmLabel={action ? t(labels[action.kind]) : ''}
        danger={action?.kind === 'disable' || action?.kind === 'reset'}
        onClose={() => setAction(null)}
        onSubmit={async (reason) => {
          if (!action) return;
          const staff_id = action.member.staff_id;
          if (action.kind === 'roles')
            await api.post('setStaffRoles', { staff_id, roles: newRoles.join(','), reason });
          if (action.kind === 'disable') await api.post('disableStaff', { staff_id, reason });
          if (action.kind === 'enable') await api.post('enableStaff', { staff_id, reason });
          if (action.kind === 'reset') await api.post('resetStaffTotp', { staff_id, reason });
          await refresh();
        }}
      >
        {action?.kind === 'roles' ? <RolePicker value={newRoles} onChange={setNewRoles} /> : null}
      </ReasonDialog>
    </Stack>
  );
}

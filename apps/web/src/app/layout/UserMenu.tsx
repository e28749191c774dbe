import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { displayName, useInfo } from '../../api/info.ts';
import { useLogout } from '../../api/userLogout.ts';
import { ChevronDownIcon, LockIcon, LogoutIcon, SettingsIcon } from '../../components/icons.tsx';

/** The logged-in customer's menu in the desktop header. */
export function UserMenu() {
  const { t } = useTranslation();
  const { data } = useInfo();
  const logout = useLogout();
  const display = data ? displayName(data) : '';

  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={t('nav.userMenu')} data-testid="user-menu" px={6} py={4}>
          <Group gap={8} wrap="nowrap">
            <Avatar size={32} radius="xl" color="brand">
              {display.slice(0, 1).toUpperCase()}
            </Avatar>
            <Text
              size="sm"
              fw={500}
              maw={280}
              truncate="end"
              visibleFrom="lg"
              title={display}
              data-testid="user-menu-name"
            >
              {display}
            </Text>
            <ChevronDownIcon size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {data ? (
          <Menu.Label>
            {t('account.uid')} {data.uid}
          </Menu.Label>
        ) : null}
        <Menu.Item
          component={Link}
          to="/setting"
          leftSection={<SettingsIcon size={16} />}
          data-testid="user-menu-settings"
        >
          {t('nav.settings')}
        </Menu.Item>
        <Menu.Item
          component={Link}
          to="/forgetpwd?type=changepwd"
          leftSection={<LockIcon size={16} />}
          data-testid="user-menu-change-password"
        >
          {t('nav.changePassword')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item
          color="red"
          leftSection={<LogoutIcon size={16} />}
          onClick={() => logout.mutate()}
          data-testid="user-menu-logout"
        >
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

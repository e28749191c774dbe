import { Anchor, Box, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The frame of the profile screens: one centred card, a way back to the security centre under it. */
export function Frame({
  title,
  subtitle,
  children,
  testId,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  testId: string;
}) {
  const { t } = useTranslation('profile');
  return (
    <Box maw={520} mx="auto" w="100%" py={{ base: 'md', sm: 48 }} data-testid={testId}>
      <Paper radius="lg" p={{ base: 'md', sm: 32 }} withBorder>
        <Stack gap={4} mb="lg">
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle ? (
            <Text c="dimmed" size="sm" component="div">
              {subtitle}
            </Text>
          ) : null}
        </Stack>
        {children}
      </Paper>
      <Box mt="lg" ta="center">
        <Anchor component={Link} to="/setting" size="sm" data-testid="profile-back">
          {t('username.back')}
        </Anchor>
      </Box>
    </Box>
  );
}

import { Box, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of the access screens: one centred column, a card on wide screens and phones alike. */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
  testId,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
}) {
  return (
    <Box maw={480} mx="auto" py={{ base: 'md', sm: 48 }} data-testid={testId}>
      <Paper radius="lg" p={{ base: 'md', sm: 32 }} withBorder>
        <Stack gap={4} mb="lg">
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle ? (
            <Text c="dimmed" size="sm">
              {subtitle}
            </Text>
          ) : null}
        </Stack>
        {children}
      </Paper>
      {footer ? (
        <Box mt="lg" ta="center">
          {footer}
        </Box>
      ) : null}
    </Box>
  );
}

import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSignedIn } from '../hooks/useSignedIn.ts';
import { injectedWallet, useWalletLogin, WalletStop } from '../hooks/useWalletLogin.ts';
import { FormAlert, refusalOf } from './FormAlert.tsx';

/**
 * Sign-In with Ethereum through the browser's injected wallet. Only an address and a signature are
 * ever asked for; without an injected wallet the screen says so instead of failing.
 */
export function WalletLogin() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const wallet = useWalletLogin();
  const available = injectedWallet() !== null;

  const stopMessage = (() => {
    const error = wallet.error;
    if (!(error instanceof WalletStop)) return refusalOf(error);
    if (error.why === 'missing') return t('auth.wallet.noWallet');
    if (error.why === 'rejected') return t('auth.wallet.rejected');
    if (error.why === 'noAddress') return t('auth.wallet.noAddress');
    return t('auth.wallet.failed');
  })();

  return (
    <Stack gap="md">
      <Text size="sm">{t('auth.wallet.intro')}</Text>
      <Alert color="blue" variant="light" data-testid="wallet-safety">
        {t('auth.wallet.safety')}
      </Alert>
      {available ? (
        <>
          <FormAlert message={stopMessage} testId="wallet-error" />
          <Button
            size="md"
            fullWidth
            loading={wallet.isPending}
            onClick={() =>
              wallet.mutate(undefined, { onSuccess: (data) => signedIn(data.token, t('auth.login.welcome')) })
            }
            data-testid="wallet-connect"
          >
            {wallet.isPending ? t('auth.wallet.connecting') : t('auth.wallet.connect')}
          </Button>
        </>
      ) : (
        <Alert color="yellow" variant="light" role="status" data-testid="wallet-missing">
          {t('auth.wallet.noWallet')}
        </Alert>
      )}
    </Stack>
  );
}

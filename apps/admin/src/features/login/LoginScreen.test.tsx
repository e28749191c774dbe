// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { staffToken } from '../../app/api.ts';
import { mockApi, Refusal } from '../../test/api.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import LoginScreen from './LoginScreen.tsx';

const RTOKEN = /^[A-Za-z0-9]{12}$/;

async function typeCredentials(user: Awaited<ReturnType<typeof renderAdmin>>['user']) {
  await fill(user, screen.getByTestId('login-email'), 'ops@bourse.test');
  await fill(user, screen.getByTestId('login-password'), 'correct horse');
  await user.click(screen.getByTestId('login-next'));
}

async function typeCode(user: Awaited<ReturnType<typeof renderAdmin>>['user'], code: string) {
  const boxes = within(screen.getByTestId('login-code')).getAllByRole('textbox');
  await user.click(boxes[0] as HTMLElement);
  await user.keyboard(code);
}

describe('the staff login form', () => {
  it('sends email and password, then the authenticator code, and signs in', async () => {
    const api = mockApi({
      staffLogin: () => ({ stage: 'totp', ticket: 'tkt_1' }),
      staffLoginCode: () => ({ token: 'stk_new' }),
    });
    const { user } = await renderAdmin(<LoginScreen />, { route: '/login' });
    await typeCredentials(user);

    const [login] = api.callsTo('staffLogin');
    expect(login?.method).toBe('POST');
    expect(login?.body).toMatchObject({ email: 'ops@bourse.test', password: 'correct horse', lang: 'en' });
    expect(login?.body?.rtoken).toMatch(RTOKEN);

    const submit = await screen.findByTestId('login-submit');
    expect(submit).toBeDisabled();
    await typeCode(user, '123456');
    expect(submit).toBeEnabled();
    await user.click(submit);

    await waitFor(() => expect(staffToken.get()).toBe('stk_new'));
    expect(api.callsTo('staffLoginCode')[0]?.body).toMatchObject({ ticket: 'tkt_1', code: '123456' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it("shows the server's refusal and stays on the password step", async () => {
    const api = mockApi({ staffLogin: () => new Refusal('Wrong email or password', 'LOGIN_FAILED') });
    const { user } = await renderAdmin(<LoginScreen />, { route: '/login' });
    await typeCredentials(user);

    expect(await screen.findByTestId('error-note')).toHaveTextContent('Wrong email or password');
    expect(screen.getByTestId('login-email')).toBeInTheDocument();
    expect(screen.queryByTestId('login-code')).toBeNull();
    expect(staffToken.get()).toBeNull();
    expect(api.callsTo('staffLoginCode')).toHaveLength(0);
  });

  it('refuses to send an empty form', async () => {
    const api = mockApi();
    const { user } = await renderAdmin(<LoginScreen />, { route: '/login' });
    await user.click(screen.getByTestId('login-next'));
    expect(api.calls).toHaveLength(0);
  });

  it('shows the secret to enrol on a first login, and clears a refused code', async () => {
    const api = mockApi({
      staffLogin: () => ({
        stage: 'enrol',
        ticket: 'tkt_2',
        secret: 'JBSWY3DPEHPK3PXP',
        otpauth_uri: 'otpauth://totp/Bourse:ops?secret=JBSWY3DPEHPK3PXP',
      }),
      staffLoginCode: () => new Refusal('Code does not match', 'TOTP_INVALID'),
    });
    const { user } = await renderAdmin(<LoginScreen />, { route: '/login' });
    await typeCredentials(user);

    expect(await screen.findByTestId('enrol-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    await typeCode(user, '654321');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('error-note')).toHaveTextContent('Code does not match');
    expect(screen.getByTestId('login-submit')).toBeDisabled();
    expect(staffToken.get()).toBeNull();
    expect(api.callsTo('staffLoginCode')[0]?.body).toMatchObject({ ticket: 'tkt_2', code: '654321' });
  });
});

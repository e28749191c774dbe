// @vitest-environment happy-dom
import { CODE } from '@bourse/protocol';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, Refusal, signIn } from '../test/api.ts';
import { renderAdmin } from '../test/render.tsx';
import { staffToken } from './api.ts';
import { routes } from './routes.tsx';

const PERMISSIONS = ['withdrawals.read', 'withdrawals.decide', 'customers.read', 'adjustments.create'];

function setUp(permissions = PERMISSIONS): MockedApi {
  const api = mockApi({
    'withdrawals/queue': () => ({ list: [], total: 0 }),
    getAdjustments: () => ({ list: [], staff_names: {}, threshold_usdt: '10000' }),
    staffLogout: () => ({ ok: true }),
  });
  signIn(api, permissions);
  return api;
}

const location = () => screen.getByTestId('location');

describe('the back office layout and navigation', () => {
  it('sends a visitor without a session to the login screen', async () => {
    mockApi();
    await renderAdmin(null, { routes, route: '/withdrawals' });
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/));
    expect(screen.getByTestId('login-email')).toBeInTheDocument();
  });

  it('opens the first screen the staff member may use and lists only the screens their permissions allow', async () => {
    setUp();
    await renderAdmin(null, { routes, route: '/' });
    await waitFor(() => expect(location()).toHaveTextContent(/^\/withdrawals$/));
    expect(await screen.findByTestId('withdrawals-screen')).toBeInTheDocument();
    expect(screen.getByTestId('signed-in-as')).toHaveTextContent('Signed in as ops@bourse.test');
    const nav = screen.getAllByTestId(/^nav-/).map((el) => el.dataset.testid);
    expect(nav).toEqual(['nav-withdrawals', 'nav-customers', 'nav-adjustments']);
    expect(screen.getByTestId('nav-withdrawals')).toHaveAttribute('data-active');
    expect(screen.getByTestId('nav-customers')).not.toHaveAttribute('data-active');
  });

  it('moves between screens from the menu, lighting one entry', async () => {
    setUp();
    const { user } = await renderAdmin(null, { routes, route: '/withdrawals' });
    await screen.findByTestId('withdrawals-screen');
    await user.click(screen.getByTestId('nav-adjustments'));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/adjustments$/));
    expect(await screen.findByText('Manual adjustments')).toBeInTheDocument();
    expect(screen.getByTestId('nav-adjustments')).toHaveAttribute('data-active');
    expect(screen.getByTestId('nav-withdrawals')).not.toHaveAttribute('data-active');
  });

  it('refuses a deep link to a screen the roles do not allow, and names an unknown one', async () => {
    setUp();
    const { router } = await renderAdmin(null, { routes, route: '/staff' });
    expect(await screen.findByTestId('forbidden')).toHaveTextContent('Your roles do not allow this screen');
    await router.navigate('/no/such/screen');
    expect(await screen.findByText('No such screen')).toBeInTheDocument();
  });

  it('logs out: tells the server, forgets the token and returns to the login screen', async () => {
    const api = setUp();
    const { user } = await renderAdmin(null, { routes, route: '/withdrawals' });
    await screen.findByTestId('withdrawals-screen');
    await user.click(screen.getAllByRole('button', { name: 'Log out' })[0] as HTMLElement);
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/));
    expect(api.callsTo('staffLogout')).toHaveLength(1);
    expect(staffToken.get()).toBeNull();
  });

  it('returns to the login screen when the server ends the session', async () => {
    const api = setUp();
    api.on({
      'withdrawals/queue': () => new Refusal('Session ended', 'SESSION_ENDED', CODE.SESSION_ENDED),
    });
    await renderAdmin(null, { routes, route: '/withdrawals' });
    await waitFor(() => expect(location()).toHaveTextContent(/^\/login$/));
    expect(staffToken.get()).toBeNull();
  });
});

import type { AdminLaunchpadProjectBody } from '@bourse/protocol';
import type { StaffContext } from '../../http/staff.ts';
import type { LaunchpadDeps } from './context.ts';
import { act, createProject } from './projects.ts';
import * as repo from './repo.ts';

/**
 * Demo content (DEMO_CONTENT on): two announced projects on the clock of the first start — NOVA,
 * pro rata, opening a minute later for two weeks; ORBIT, first come, opening in two days. Both go
 * through the same create and announce as the back office (actor `demo-seed`, audited). Runs once:
 * a project created by the seed actor means it ran.
 */

const DEMO_SEED_ACTOR = 'demo-seed';
const seedStaff: StaffContext = {
  staffId: DEMO_SEED_ACTOR,
  sessionId: DEMO_SEED_ACTOR,
  roles: ['administrator'],
};
const DAY = 86_400_000;

function body(now: number, over: Partial<AdminLaunchpadProjectBody>): AdminLaunchpadProjectBody {
  return {
    coin: 'NOVA',
    coin_scale: 8,
    names: { en: 'Nova Network', zh: 'Nova 网络', ft: 'Nova 網絡' },
    issuer: 'Nova Labs Ltd.',
    descriptions: {
      en: 'Nova is a demonstration project: a settlement network for small merchants. Its coin pays network fees.',
      zh: 'Nova 是演示项目：面向小商户的结算网络，其代币用于支付网络手续费。',
      ft: 'Nova 是演示項目：面向小商戶的結算網絡，其代幣用於支付網絡手續費。',
    },
    risk_warnings: {
      en: 'New coins are highly risky: the price after listing may be far below the issue price, and you may lose everything you pay. Coins are locked until the release date and cannot be sold before.',
      zh: '新币风险极高：上市后的价格可能远低于发行价，您可能损失全部投入。代币在释放日前锁定，不能出售。',
      ft: '新幣風險極高：上市後的價格可能遠低於發行價，您可能損失全部投入。代幣在釋放日前鎖定，不能出售。',
    },
    whitepaper_url: 'https://example.com/nova-whitepaper.pdf',
    mode: 'pro_rata',
    price: '0.05',
    lot_size: '10',
    circulation: '100000000',
    supply: '2000000',
    soft_cap: '200000',
    per_customer_cap: '100000',
    min_subscription: '100',
    margin_ratio: '100',
    fee_rate: '0.2',
    opens_at: now + 60_000,
    closes_at: now + 14 * DAY,
    listing_at: now + 15 * DAY,
    lockup_days: 30,
    refund_hours: 24,
    min_tier: 'primary',
    min_rating: 'conservative',
    jurisdictions: ['permissive', 'eu_retail', 'custom'],
    reason: 'demo content seed',
    ...over,
  };
}

export async function seedDemo(deps: LaunchpadDeps): Promise<number> {
  const existing = (await repo.projects(deps.db)).some((p) => p.created_by === DEMO_SEED_ACTOR);
  if (existing) return 0;
  const now = deps.clock.now().getTime();
  const projects = [
    body(now, {}),
    body(now, {
      coin: 'ORBIT',
      names: { en: 'Orbit Storage', zh: 'Orbit 存储', ft: 'Orbit 儲存' },
      issuer: 'Orbit Foundation',
      descriptions: {
        en: 'Orbit is a demonstration project: shared file storage paid per gigabyte in its coin.',
        zh: 'Orbit 是演示项目：以其代币按 GB 计费的共享文件存储。',
        ft: 'Orbit 是演示項目：以其代幣按 GB 計費的共享檔案儲存。',
      },
      whitepaper_url: 'https://example.com/orbit-whitepaper.pdf',
      mode: 'first_come',
      price: '0.2',
      lot_size: '5',
      supply: '500000',
      soft_cap: '0',
      per_customer_cap: '5000',
      min_subscription: '50',
      fee_rate: '0',
      opens_at: now + 2 * DAY,
      closes_at: now + 5 * DAY,
      listing_at: now + 6 * DAY,
      lockup_days: 0,
    }),
  ];
  for (const b of projects) {
    const row = await createProject(deps, seedStaff, b);
    await act(deps, seedStaff, row.id, { action: 'announce', reason: 'demo content seed' });
  }
  return projects.length;
}

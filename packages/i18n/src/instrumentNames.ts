import type { Lang } from '@bourse/protocol';

/**
 * Names of the default catalogue's instruments in Chinese (zh Simplified, ft Traditional), by
 * symbol; English is the catalogue's own name. An instrument not listed here (an operator's
 * import) shows its catalogue name in every language.
 */
const COINS: Record<string, [zh: string, ft: string]> = {
  BTC: ['比特币', '比特幣'],
  ETH: ['以太坊', '以太坊'],
  SOL: ['Solana', 'Solana'],
  XRP: ['瑞波币', '瑞波幣'],
  BNB: ['币安币', '幣安幣'],
  DOGE: ['狗狗币', '狗狗幣'],
  ADA: ['艾达币', '艾達幣'],
  TRX: ['波场', '波場'],
  AVAX: ['雪崩', '雪崩'],
  LINK: ['Chainlink', 'Chainlink'],
  TON: ['Toncoin', 'Toncoin'],
  DOT: ['波卡', '波卡'],
  LTC: ['莱特币', '萊特幣'],
  BCH: ['比特币现金', '比特幣現金'],
  SHIB: ['柴犬币', '柴犬幣'],
  UNI: ['Uniswap', 'Uniswap'],
  ATOM: ['Cosmos', 'Cosmos'],
  NEAR: ['NEAR 协议', 'NEAR 協議'],
  ETC: ['以太坊经典', '以太坊經典'],
  FIL: ['文件币', '文件幣'],
  APT: ['Aptos', 'Aptos'],
  ARB: ['Arbitrum', 'Arbitrum'],
  OP: ['Optimism', 'Optimism'],
  SUI: ['Sui', 'Sui'],
  PEPE: ['佩佩', '佩佩'],
  USDT: ['泰达币', '泰達幣'],
};

const OTHERS: Record<string, [zh: string, ft: string]> = {
  'EUR/USD': ['欧元 / 美元', '歐元 / 美元'],
  'GBP/USD': ['英镑 / 美元', '英鎊 / 美元'],
  'USD/JPY': ['美元 / 日元', '美元 / 日圓'],
  'USD/CHF': ['美元 / 瑞士法郎', '美元 / 瑞士法郎'],
  'AUD/USD': ['澳元 / 美元', '澳元 / 美元'],
  'USD/CAD': ['美元 / 加元', '美元 / 加元'],
  'NZD/USD': ['新西兰元 / 美元', '紐西蘭元 / 美元'],
  'EUR/GBP': ['欧元 / 英镑', '歐元 / 英鎊'],
  'EUR/JPY': ['欧元 / 日元', '歐元 / 日圓'],
  'GBP/JPY': ['英镑 / 日元', '英鎊 / 日圓'],
  'USD/CNH': ['美元 / 离岸人民币', '美元 / 離岸人民幣'],
  'USD/HKD': ['美元 / 港元', '美元 / 港元'],
  'XAU/USD': ['现货黄金', '現貨黃金'],
  'XAG/USD': ['现货白银', '現貨白銀'],
  'XPT/USD': ['现货铂金', '現貨鉑金'],
  'XPD/USD': ['现货钯金', '現貨鈀金'],
  WTI: ['WTI 原油', 'WTI 原油'],
  BRENT: ['布伦特原油', '布蘭特原油'],
  NATGAS: ['天然气（亨利港）', '天然氣（亨利港）'],
  AAPL: ['苹果', '蘋果'],
  MSFT: ['微软', '微軟'],
  NVDA: ['英伟达', '輝達'],
  TSLA: ['特斯拉', '特斯拉'],
  AMZN: ['亚马逊', '亞馬遜'],
  GOOGL: ['谷歌 A 类股', 'Google A 類股'],
  META: ['Meta 平台', 'Meta 平台'],
  NFLX: ['奈飞', '網飛'],
  AMD: ['超威半导体', '超微半導體'],
  INTC: ['英特尔', '英特爾'],
  JPM: ['摩根大通', '摩根大通'],
  V: ['维萨', 'Visa'],
  KO: ['可口可乐', '可口可樂'],
  DIS: ['华特迪士尼', '華特迪士尼'],
  BABA: ['阿里巴巴 ADR', '阿里巴巴 ADR'],
  NIO: ['蔚来 ADR', '蔚來 ADR'],
  '0700.HK': ['腾讯控股', '騰訊控股'],
  '9988.HK': ['阿里巴巴（港股）', '阿里巴巴（港股）'],
  SPY: ['标普 500 ETF', '標普 500 ETF'],
  QQQ: ['纳斯达克 100 ETF（QQQ）', '納斯達克 100 ETF（QQQ）'],
  DIA: ['道琼斯工业 ETF', '道瓊工業 ETF'],
  IWM: ['罗素 2000 ETF', '羅素 2000 ETF'],
  GLD: ['黄金 ETF（SPDR）', '黃金 ETF（SPDR）'],
  SLV: ['白银 ETF（iShares）', '白銀 ETF（iShares）'],
  USO: ['美国原油基金', '美國原油基金'],
  TLT: ['20 年期以上美国国债 ETF', '20 年期以上美國國債 ETF'],
  EEM: ['新兴市场 ETF', '新興市場 ETF'],
  VTI: ['全美股市 ETF', '全美股市 ETF'],
};

const KIND: Record<'perpetual' | 'quarterly', [zh: string, ft: string]> = {
  perpetual: ['永续', '永續'],
  quarterly: ['季度', '季度'],
};

/** The instrument's name in `lang`; `fallback` (the catalogue name) when there is no translation. */
export function instrumentName(symbol: string, lang: Lang | string, fallback: string): string {
  if (lang !== 'zh' && lang !== 'ft') return fallback;
  const at: 0 | 1 = lang === 'zh' ? 0 : 1;
  const other = OTHERS[symbol];
  if (other) return other[at];
  // Crypto: BASE/USDT (spot), BASE/USDT-PERP (perpetual), BASE/USDT-YYMMDD (quarterly).
  const crypto = /^([A-Z0-9]+)\/(USDT)(?:-(PERP|\d{6}))?$/.exec(symbol);
  const coin = crypto ? COINS[crypto[1] as string] : undefined;
  const quote = crypto ? COINS[crypto[2] as string] : undefined;
  if (!crypto || !coin || !quote) return fallback;
  if (!crypto[3]) return `${coin[at]} / ${quote[at]}`;
  if (crypto[3] === 'PERP') return `${coin[at]} ${KIND.perpetual[at]}`;
  return `${coin[at]} ${KIND.quarterly[at]} ${crypto[3]}`;
}

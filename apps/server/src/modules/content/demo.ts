import type { ContentInput } from './input.ts';

/**
 * The operator's sample content (DEMO_CONTENT=true, the embedded default): what a fresh install
 * shows until the operator writes their own. Every entry says it is sample content, in all three
 * languages, and is stored with `demo = true`.
 */
export const DEMO_CONTENT: ReadonlyArray<ContentInput & { ageHours: number }> = [
  {
    kind: 'banner',
    sort: 1,
    ageHours: 2,
    link: '/market',
    title: {
      en: 'Every market, one account',
      zh: '一个账户，交易全部市场',
      ft: '一個賬戶，交易全部市場',
    },
    summary: {
      en: 'Crypto, forex, metals, energy, stocks and ETFs with live prices.',
      zh: '加密货币、外汇、贵金属、能源、股票与 ETF，实时行情。',
      ft: '加密貨幣、外匯、貴金屬、能源、股票與 ETF，即時行情。',
    },
    body: {
      en: 'Sample content from the operator of this installation.\n\nBrowse crypto spot pairs, perpetual and delivery contracts, forex, metals, energy, stocks and ETFs from one market screen. Search, sort by price, change or volume, and keep your favourites one tap away.\n\nPrices on a fresh installation come from the built-in simulated feed and are labelled SIMULATED.',
      zh: '本文为本平台运营方的示例内容。\n\n在同一个行情页面浏览加密货币现货、永续与交割合约、外汇、贵金属、能源、股票和 ETF。可以搜索，按价格、涨跌幅或成交量排序，并把常看的品种加入自选。\n\n新安装的平台价格来自内置的模拟行情，并标注为“模拟”。',
      ft: '本文為本平台營運方的示例內容。\n\n在同一個行情頁面瀏覽加密貨幣現貨、永續與交割合約、外匯、貴金屬、能源、股票和 ETF。可以搜尋，按價格、漲跌幅或成交量排序，並把常看的品種加入自選。\n\n新安裝的平台價格來自內建的模擬行情，並標註為「模擬」。',
    },
  },
  {
    kind: 'banner',
    sort: 2,
    ageHours: 5,
    link: '/login',
    title: {
      en: 'Practise first with a demo account',
      zh: '先用模拟账户练习',
      ft: '先用模擬賬戶練習',
    },
    summary: {
      en: 'Virtual funds, real prices, no risk.',
      zh: '虚拟资金，真实流程，零风险。',
      ft: '虛擬資金，真實流程，零風險。',
    },
    body: {
      en: 'Sample content from the operator of this installation.\n\nA demo account is created in one click from the login page. It holds virtual funds in a separate book that can never move into a real account, so you can learn the screens without risking money.\n\nA demo account expires after a while; you can create a new one at any time.',
      zh: '本文为本平台运营方的示例内容。\n\n在登录页一键即可创建模拟账户。模拟账户的虚拟资金记在独立账本中，永远不会转入真实账户，您可以放心熟悉各个页面。\n\n模拟账户会在一段时间后过期，您可以随时重新创建。',
      ft: '本文為本平台營運方的示例內容。\n\n在登入頁一鍵即可建立模擬賬戶。模擬賬戶的虛擬資金記在獨立賬本中，永遠不會轉入真實賬戶，您可以放心熟悉各個頁面。\n\n模擬賬戶會在一段時間後過期，您可以隨時重新建立。',
    },
  },
  {
    kind: 'banner',
    sort: 3,
    ageHours: 8,
    link: '/preciousMetal',
    title: {
      en: 'Gold and silver, around the clock on weekdays',
      zh: '黄金白银，工作日全天交易',
      ft: '黃金白銀，工作日全天交易',
    },
    summary: {
      en: 'Follow XAU and XAG with K-lines from one minute to one week.',
      zh: '从 1 分钟到 1 周的 K 线，关注黄金与白银走势。',
      ft: '從 1 分鐘到 1 週的 K 線，關注黃金與白銀走勢。',
    },
    body: {
      en: 'Sample content from the operator of this installation.\n\nThe precious-metals screen shows the K-line chart with volume and moving averages, the bid, ask and mark prices, 24-hour statistics and each contract’s tick, lot, contract size, maximum leverage and trading hours.',
      zh: '本文为本平台运营方的示例内容。\n\n贵金属页面展示带成交量和均线的 K 线图、买价、卖价和标记价格、24 小时统计，以及每个合约的最小变动价位、每手数量、合约规模、最大杠杆和交易时间。',
      ft: '本文為本平台營運方的示例內容。\n\n貴金屬頁面展示帶成交量和均線的 K 線圖、買價、賣價和標記價格、24 小時統計，以及每個合約的最小變動價位、每手數量、合約規模、最大槓桿和交易時間。',
    },
  },
  {
    kind: 'announcement',
    sort: 0,
    ageHours: 1,
    link: null,
    title: {
      en: 'Welcome to our new trading platform',
      zh: '欢迎使用我们的新交易平台',
      ft: '歡迎使用我們的新交易平台',
    },
    summary: {
      en: 'What is available today and what comes next.',
      zh: '现已开放的功能与后续计划。',
      ft: '現已開放的功能與後續計劃。',
    },
    body: {
      en: 'Sample content from the operator of this installation.\n\nMarket data, K-line charts, accounts and demo accounts are open today. Trading, deposits and withdrawals open with the next releases; we will announce each one here.\n\nCustomer support is available 24 hours a day.',
      zh: '本文为本平台运营方的示例内容。\n\n行情、K 线图、账户和模拟账户现已开放。交易、充值和提现将在后续版本陆续开放，届时我们会在此发布公告。\n\n客服 24 小时在线。',
      ft: '本文為本平台營運方的示例內容。\n\n行情、K 線圖、賬戶和模擬賬戶現已開放。交易、充值和提現將在後續版本陸續開放，屆時我們會在此發布公告。\n\n客服 24 小時在線。',
    },
  },
  {
    kind: 'news',
    sort: 0,
    ageHours: 3,
    link: '/market',
    title: {
      en: 'How to read the 24-hour change',
      zh: '如何理解 24 小时涨跌幅',
      ft: '如何理解 24 小時漲跌幅',
    },
    summary: {
      en: 'The change compares the last price with the price 24 hours ago.',
      zh: '涨跌幅是最新价与 24 小时前价格的比较。',
      ft: '漲跌幅是最新價與 24 小時前價格的比較。',
    },
    body: {
      en: 'Sample content from the operator of this installation.\n\nThe 24-hour change on the market screen compares the last price with the first price of a rolling 24-hour window. High, low and volume cover the same window.\n\nOutside trading hours a market is shown as closed and its figures do not move until it opens again.',
      zh: '本文为本平台运营方的示例内容。\n\n行情页面上的 24 小时涨跌幅，是最新价与滚动 24 小时窗口内第一笔价格的比较。最高价、最低价和成交量统计的是同一个窗口。\n\n非交易时间内，市场显示为休市，相关数据在重新开市前不会变化。',
      ft: '本文為本平台營運方的示例內容。\n\n行情頁面上的 24 小時漲跌幅，是最新價與滾動 24 小時窗口內第一筆價格的比較。最高價、最低價和成交量統計的是同一個窗口。\n\n非交易時間內，市場顯示為休市，相關數據在重新開市前不會變化。',
    },
  },
  {
    kind: 'news',
    sort: 0,
    ageHours: 26,
    link: null,
    title: {
      en: 'Moving averages on the K-line chart',
      zh: 'K 线图上的移动平均线',
      ft: 'K 線圖上的移動平均線',
    },
    summary: {
      en: 'MA7, MA25 and MA99 smooth the closing prices over 7, 25 and 99 candles.',
      zh: '三条均线分别是最近 7、25 和 99 根 K 线收盘价的平均值。',
      ft: '三條均線分別是最近 7、25 和 99 根 K 線收盤價的平均值。',
    },
    body: {
      en: 'Sample content from the operator of this installation.\n\nEach moving average is the mean closing price of the last 7, 25 or 99 candles of the chosen interval. Hover over or tap the chart to read the open, high, low, close, volume and the three averages of any candle.',
      zh: '本文为本平台运营方的示例内容。\n\n每条移动平均线是所选周期最近 7、25 或 99 根 K 线收盘价的平均值。将鼠标悬停或点按图表，即可查看任意一根 K 线的开盘、最高、最低、收盘、成交量以及三条均线的数值。',
      ft: '本文為本平台營運方的示例內容。\n\n每條移動平均線是所選週期最近 7、25 或 99 根 K 線收盤價的平均值。將滑鼠懸停或點按圖表，即可查看任意一根 K 線的開盤、最高、最低、收盤、成交量以及三條均線的數值。',
    },
  },
  {
    kind: 'news',
    sort: 0,
    ageHours: 50,
    link: null,
    title: {
      en: 'Why a price can be marked stale',
      zh: '为什么价格会被标记为“延迟”',
      ft: '為什麼價格會被標記為「延遲」',
    },
    summary: {
      en: 'When a price source falls silent, we say so instead of showing an old price as current.',
      zh: '当价格来源中断时，我们会如实提示，而不是把旧价格当作最新价格显示。',
      ft: '當價格來源中斷時，我們會如實提示，而不是把舊價格當作最新價格顯示。',
    },
    body: {
      en: 'Sample content from the operator of this installation.\n\nIf no new price arrives for an open market for 30 seconds, the instrument is marked stale on every screen. Nothing is ever traded on a stale price: orders wait until the feed is live again.',
      zh: '本文为本平台运营方的示例内容。\n\n如果某个开市中的品种 30 秒内没有收到新价格，所有页面都会将其标记为延迟。任何交易都不会使用延迟的价格成交：订单会等到行情恢复后再处理。',
      ft: '本文為本平台營運方的示例內容。\n\n如果某個開市中的品種 30 秒內沒有收到新價格，所有頁面都會將其標記為延遲。任何交易都不會使用延遲的價格成交：訂單會等到行情恢復後再處理。',
    },
  },
];

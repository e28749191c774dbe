import type { CategoryInput, ContentInput } from './input.ts';

/**
 * The help centre's sample set (DEMO_CONTENT): three help categories, help articles, about,
 * security advice, a benefit and a generic text, in markdown and three languages. Each entry closes
 * by saying it is sample content; the operator replaces them (all stored with `demo = true`).
 */
export const DEMO_CATEGORIES: readonly CategoryInput[] = [
  { id: 'getting-started', sort: 1, name: { en: 'Getting started', zh: '新手入门', ft: '新手入門' } },
  {
    id: 'deposits-withdrawals',
    sort: 2,
    name: { en: 'Deposits and withdrawals', zh: '充值与提现', ft: '充值與提現' },
  },
  { id: 'account-security', sort: 3, name: { en: 'Account security', zh: '账户安全', ft: '賬戶安全' } },
];

const NOTE = {
  en: '\n\n*Sample content from the operator of this installation.*',
  zh: '\n\n*本文为本平台运营方的示例内容。*',
  ft: '\n\n*本文為本平台營運方的示例內容。*',
};

type Entry = ContentInput & { ageHours: number };

function entry(e: Entry): Entry {
  return { ...e, body: { en: e.body.en + NOTE.en, zh: e.body.zh + NOTE.zh, ft: e.body.ft + NOTE.ft } };
}

export const DEMO_HELP: readonly Entry[] = [
  entry({
    kind: 'help',
    category_id: 'getting-started',
    sort: 1,
    ageHours: 30,
    title: { en: 'How to verify your identity', zh: '如何完成身份认证', ft: '如何完成身份認證' },
    summary: {
      en: 'Three levels, what each one unlocks, and what to prepare.',
      zh: '三个认证等级、各自解锁的功能以及需要准备的材料。',
      ft: '三個認證等級、各自解鎖的功能以及需要準備的材料。',
    },
    body: {
      en: 'Verification has three levels. Open **Settings → Identity verification** to start.\n\n1. **Primary**: your legal name and ID number.\n2. **Advanced**: a photo of both sides of your ID and a photo of you holding it.\n3. **Address**: a recent utility bill or bank statement in your name.\n\nEach screen says what the level unlocks before you send anything. Photos must be JPG or PNG, at most 8 MB. A reviewer decides within one business day; if a document is refused, the reason is shown beside it and you can send a new one.',
      zh: '身份认证分为三个等级。打开 **设置 → 身份认证** 即可开始。\n\n1. **初级认证**：真实姓名和证件号码。\n2. **高级认证**：证件正反面照片，以及手持证件的照片。\n3. **地址认证**：近期以您本人名义开具的水电费账单或银行对账单。\n\n提交前，每个页面都会说明该等级可以解锁哪些功能。照片须为 JPG 或 PNG 格式，不超过 8 MB。审核员会在一个工作日内处理；如有材料被拒，拒绝原因会显示在该材料旁边，您可以重新提交。',
      ft: '身份認證分為三個等級。打開 **設定 → 身份認證** 即可開始。\n\n1. **初級認證**：真實姓名和證件號碼。\n2. **高級認證**：證件正反面照片，以及手持證件的照片。\n3. **地址認證**：近期以您本人名義開具的水電費帳單或銀行對帳單。\n\n提交前，每個頁面都會說明該等級可以解鎖哪些功能。照片須為 JPG 或 PNG 格式，不超過 8 MB。審核員會在一個工作日內處理；如有材料被拒，拒絕原因會顯示在該材料旁邊，您可以重新提交。',
    },
  }),
  entry({
    kind: 'help',
    category_id: 'deposits-withdrawals',
    sort: 1,
    ageHours: 28,
    title: { en: 'How long does a withdrawal take?', zh: '提现需要多长时间？', ft: '提現需要多長時間？' },
    summary: {
      en: 'From your request to the money arriving, step by step.',
      zh: '从提交申请到资金到账的每一步。',
      ft: '從提交申請到資金到帳的每一步。',
    },
    body: {
      en: 'A withdrawal goes through three steps:\n\n1. **Request**: you enter the amount, the address or bank card and your trade password. The fee and the amount you will receive are shown before you confirm. The amount is frozen in your account.\n2. **Review**: staff check the request, usually within 30 minutes during staffed hours. A refused request names its rule and the frozen amount returns to your balance.\n3. **Payout**: crypto is sent on its chain; the transaction hash appears in **Records** with a link to the block explorer. Bank transfers take one to three business days.\n\nEvery step sends you a notice.',
      zh: '提现分为三步：\n\n1. **提交申请**：输入金额、地址或银行卡以及交易密码。确认前会显示手续费和实际到账金额。该金额会在您的账户中冻结。\n2. **审核**：工作人员审核申请，在值班时间内通常 30 分钟内完成。被拒绝的申请会注明所依据的规则，冻结金额退回您的余额。\n3. **出款**：加密货币在对应链上发出，交易哈希会显示在 **记录** 中，并附有区块浏览器链接。银行转账需要一至三个工作日。\n\n每一步都会给您发送通知。',
      ft: '提現分為三步：\n\n1. **提交申請**：輸入金額、地址或銀行卡以及交易密碼。確認前會顯示手續費和實際到帳金額。該金額會在您的帳戶中凍結。\n2. **審核**：工作人員審核申請，在值班時間內通常 30 分鐘內完成。被拒絕的申請會註明所依據的規則，凍結金額退回您的餘額。\n3. **出款**：加密貨幣在對應鏈上發出，交易雜湊會顯示在 **記錄** 中，並附有區塊瀏覽器連結。銀行轉帳需要一至三個工作日。\n\n每一步都會給您發送通知。',
    },
  }),
  entry({
    kind: 'help',
    category_id: 'deposits-withdrawals',
    sort: 2,
    ageHours: 27,
    title: {
      en: 'Depositing crypto: choose the right network',
      zh: '充值加密货币：选对网络',
      ft: '充值加密貨幣：選對網路',
    },
    summary: {
      en: 'A deposit sent on the wrong network cannot be credited.',
      zh: '通过错误网络发送的充值无法入账。',
      ft: '透過錯誤網路發送的充值無法入帳。',
    },
    body: {
      en: 'Each coin is accepted on the networks listed on the deposit screen (for USDT: TRC20 or ERC20). Your address is different for each network.\n\n- Choose the network **first**, then copy the address or scan its QR code.\n- Send from a wallet that uses the same network.\n- Deposits below the minimum shown are held, not lost: they are credited once the total passes the minimum.\n\nA deposit is credited after the number of confirmations shown on the screen. You can follow it in **Records → Deposits**.',
      zh: '每种币只接受充值页面列出的网络（USDT 为 TRC20 或 ERC20）。不同网络的充值地址不同。\n\n- **先**选择网络，再复制地址或扫描二维码。\n- 使用相同网络的钱包发送。\n- 低于页面所示最低金额的充值会被暂存，不会丢失：累计超过最低金额后即可入账。\n\n达到页面所示的确认数后即可入账。您可以在 **记录 → 充值** 中查看进度。',
      ft: '每種幣只接受充值頁面列出的網路（USDT 為 TRC20 或 ERC20）。不同網路的充值地址不同。\n\n- **先**選擇網路，再複製地址或掃描 QR 碼。\n- 使用相同網路的錢包發送。\n- 低於頁面所示最低金額的充值會被暫存，不會遺失：累計超過最低金額後即可入帳。\n\n達到頁面所示的確認數後即可入帳。您可以在 **記錄 → 充值** 中查看進度。',
    },
  }),
  entry({
    kind: 'help',
    category_id: 'account-security',
    sort: 1,
    ageHours: 26,
    title: { en: 'Setting up Google Authenticator', zh: '设置谷歌验证器', ft: '設定谷歌驗證器' },
    summary: {
      en: 'A second code from your phone protects logins and withdrawals.',
      zh: '来自手机的第二道验证码，保护登录和提现。',
      ft: '來自手機的第二道驗證碼，保護登入和提現。',
    },
    body: {
      en: '1. Install Google Authenticator (or any TOTP app) on your phone.\n2. Open **Settings → Security centre → Google authenticator**.\n3. Scan the QR code, or type the key shown under it.\n4. Enter the six-digit code the app shows to finish.\n\nWrite the key down on paper and keep it safe: it is the only way to move the authenticator to a new phone. Nobody from the platform will ever ask you for a code.',
      zh: '1. 在手机上安装谷歌验证器（或任何 TOTP 应用）。\n2. 打开 **设置 → 安全中心 → 谷歌验证器**。\n3. 扫描二维码，或手动输入二维码下方的密钥。\n4. 输入应用显示的六位验证码即可完成。\n\n请把密钥抄在纸上妥善保存：这是把验证器迁移到新手机的唯一方式。平台的任何人都不会向您索要验证码。',
      ft: '1. 在手機上安裝谷歌驗證器（或任何 TOTP 應用程式）。\n2. 打開 **設定 → 安全中心 → 谷歌驗證器**。\n3. 掃描 QR 碼，或手動輸入 QR 碼下方的金鑰。\n4. 輸入應用程式顯示的六位驗證碼即可完成。\n\n請把金鑰抄在紙上妥善保存：這是把驗證器遷移到新手機的唯一方式。平台的任何人都不會向您索取驗證碼。',
    },
  }),
  entry({
    kind: 'about',
    sort: 0,
    ageHours: 40,
    title: { en: 'About us', zh: '关于我们', ft: '關於我們' },
    summary: {
      en: 'Who runs this platform and how your money is kept.',
      zh: '谁在运营本平台，以及您的资金如何保管。',
      ft: '誰在營運本平台，以及您的資金如何保管。',
    },
    body: {
      en: 'This platform lets you trade crypto, forex, metals, energy, stocks and ETFs, invest and borrow from one account, in English, Simplified Chinese and Traditional Chinese.\n\n## How your money is kept\n\n- Every change of a balance is a double-entry record you can see in **Records**.\n- Prices come from a recorded price feed; nobody can set a price or a result by hand.\n- You can check that your balance is counted in our **proof of liabilities** at any time.\n\n## Contact\n\nUse **Customer service** in the app. We never contact you through outside chat apps.',
      zh: '本平台让您在一个账户中交易加密货币、外汇、贵金属、能源、股票和 ETF，并进行理财和借贷，支持英文、简体中文和繁体中文。\n\n## 您的资金如何保管\n\n- 每一次余额变动都是一条复式记账记录，您可以在 **记录** 中查看。\n- 价格来自有记录的行情源，任何人都无法手动设定价格或结果。\n- 您可以随时在我们的 **负债证明** 中核验自己的余额已被计入。\n\n## 联系我们\n\n请使用应用内的 **客服**。我们绝不会通过站外聊天软件联系您。',
      ft: '本平台讓您在一個帳戶中交易加密貨幣、外匯、貴金屬、能源、股票和 ETF，並進行理財和借貸，支援英文、簡體中文和繁體中文。\n\n## 您的資金如何保管\n\n- 每一次餘額變動都是一條複式記帳記錄，您可以在 **記錄** 中查看。\n- 價格來自有記錄的行情源，任何人都無法手動設定價格或結果。\n- 您可以隨時在我們的 **負債證明** 中核驗自己的餘額已被計入。\n\n## 聯絡我們\n\n請使用應用程式內的 **客服**。我們絕不會透過站外聊天軟體聯絡您。',
    },
  }),
  entry({
    kind: 'security',
    sort: 0,
    ageHours: 39,
    title: {
      en: 'How to recognise our staff and messages',
      zh: '如何识别官方人员和官方消息',
      ft: '如何識別官方人員和官方訊息',
    },
    summary: {
      en: 'Your anti-phishing phrase, and what we will never ask you.',
      zh: '您的防钓鱼码，以及我们绝不会向您索要的东西。',
      ft: '您的防釣魚碼，以及我們絕不會向您索取的東西。',
    },
    body: {
      en: '## Set your anti-phishing phrase\n\nOpen **Settings → Security centre → Anti-phishing phrase** and choose a phrase only you know. Every e-mail we send you carries it. **An e-mail without your phrase is not from us**: do not click its links.\n\n## What our staff will never do\n\n- Ask for your password, a verification code or a Google authenticator code.\n- Ask you to transfer money to any account or address, or to "verify" your funds.\n- Contact you through outside chat apps or from personal accounts.\n\n## Check who you are talking to\n\nOur staff talk to you only in **Customer service** inside the app, where each staff member is named and can be verified. If in doubt, stop and open the app yourself rather than following a link.',
      zh: '## 设置防钓鱼码\n\n打开 **设置 → 安全中心 → 防钓鱼码**，设置一个只有您知道的短语。我们发给您的每一封邮件都会带上它。**没有防钓鱼码的邮件不是我们发的**：请不要点击其中的链接。\n\n## 我们的工作人员绝不会\n\n- 索要您的密码、验证码或谷歌验证码。\n- 要求您向任何账户或地址转账，或以"核验资金"为名要求操作。\n- 通过站外聊天软件或私人账号联系您。\n\n## 核实对方身份\n\n我们的工作人员只会在应用内的 **客服** 中与您沟通，每位工作人员都会显示姓名并可核验。如有疑问，请停止操作，自行打开应用，而不是点击链接。',
      ft: '## 設定防釣魚碼\n\n打開 **設定 → 安全中心 → 防釣魚碼**，設定一個只有您知道的短語。我們發給您的每一封郵件都會帶上它。**沒有防釣魚碼的郵件不是我們發的**：請不要點擊其中的連結。\n\n## 我們的工作人員絕不會\n\n- 索取您的密碼、驗證碼或谷歌驗證碼。\n- 要求您向任何帳戶或地址轉帳，或以「核驗資金」為名要求操作。\n- 透過站外聊天軟體或私人帳號聯絡您。\n\n## 核實對方身份\n\n我們的工作人員只會在應用程式內的 **客服** 中與您溝通，每位工作人員都會顯示姓名並可核驗。如有疑問，請停止操作，自行打開應用程式，而不是點擊連結。',
    },
  }),
  entry({
    kind: 'benefit',
    sort: 0,
    ageHours: 38,
    link: '/proof',
    title: {
      en: 'Check for yourself that your balance is counted',
      zh: '亲自核验您的余额已被计入',
      ft: '親自核驗您的餘額已被計入',
    },
    summary: {
      en: 'Our proof of liabilities lets every customer verify their own balance.',
      zh: '我们的负债证明让每位客户都能核验自己的余额。',
      ft: '我們的負債證明讓每位客戶都能核驗自己的餘額。',
    },
    body: {
      en: 'We regularly publish a Merkle tree of all customer balances. Its root is public; only you can see your own leaf and the path from it to the root.\n\nOn the **Proof** page your browser recomputes the path itself, so you do not have to trust our word that your balance is included. It costs nothing and needs no extra verification.',
      zh: '我们会定期发布一棵包含全部客户余额的默克尔树。树根公开；只有您本人能看到自己的叶子节点以及从它到树根的路径。\n\n在 **负债证明** 页面，您的浏览器会自行重新计算这条路径，您无需相信我们的一面之词。此功能免费，且无需额外认证。',
      ft: '我們會定期發布一棵包含全部客戶餘額的默克爾樹。樹根公開；只有您本人能看到自己的葉子節點以及從它到樹根的路徑。\n\n在 **負債證明** 頁面，您的瀏覽器會自行重新計算這條路徑，您無需相信我們的一面之詞。此功能免費，且無需額外認證。',
    },
  }),
  entry({
    kind: 'text',
    sort: 0,
    ageHours: 37,
    title: { en: 'Risk warning', zh: '风险提示', ft: '風險提示' },
    summary: {
      en: 'What can go wrong when you trade, and how to limit it.',
      zh: '交易可能带来的风险，以及如何控制风险。',
      ft: '交易可能帶來的風險，以及如何控制風險。',
    },
    body: {
      en: 'Prices of crypto assets, currencies, metals and stocks can move quickly in either direction.\n\n- **Leverage** multiplies gains and losses: a position can lose its whole margin.\n- **Up/down options** pay a fixed amount or nothing; the stake can be lost entirely.\n- Past returns do not promise future ones.\n\nOnly trade with money you can afford to lose. Practise first with a demo account, and use take-profit and stop-loss orders.',
      zh: '加密资产、外汇、贵金属和股票的价格可能在任意方向上快速波动。\n\n- **杠杆** 会同时放大盈利和亏损：一笔持仓可能亏掉全部保证金。\n- **涨跌期权** 要么支付固定金额，要么全部损失本金。\n- 过往收益不代表未来收益。\n\n请只用您能承受损失的资金交易。建议先用模拟账户练习，并使用止盈止损单。',
      ft: '加密資產、外匯、貴金屬和股票的價格可能在任意方向上快速波動。\n\n- **槓桿** 會同時放大盈利和虧損：一筆持倉可能虧掉全部保證金。\n- **漲跌期權** 要麼支付固定金額，要麼全部損失本金。\n- 過往收益不代表未來收益。\n\n請只用您能承受損失的資金交易。建議先用模擬帳戶練習，並使用止盈止損單。',
    },
  }),
];

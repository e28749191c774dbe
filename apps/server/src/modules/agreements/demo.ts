import type { AgreementKind } from '@bourse/protocol';

type Texts = {
  title_en: string;
  title_zh: string;
  title_ft: string;
  summary_en: string;
  summary_zh: string;
  summary_ft: string;
  body_en: string;
  body_zh: string;
  body_ft: string;
};

const lines = (...parts: string[]) => parts.join('\n\n');

const USER: Texts = {
  title_en: 'User Agreement',
  title_zh: '用户协议',
  title_ft: '用戶協議',
  summary_en: 'The first version of the user agreement of this platform.',
  summary_zh: '本平台用户协议的第一版。',
  summary_ft: '本平台用戶協議的第一版。',
  body_en: lines(
    'This agreement is between you and the operator of this Bourse platform ("we"). By registering or using the platform you accept it, so please read it carefully.',
    '## 1. Your account',
    'You must be of legal age where you live and give true information. Keep your password and verification codes secret: you are responsible for everything done with your account. Tell us at once if you think someone else has used it.',
    '## 2. Risks of trading',
    'Prices of crypto assets, currencies, metals, energy, stocks and ETFs can move fast, and you can lose all the money you invest. With leveraged products you can lose more than your margin. Past results do not predict future returns. Only invest what you can afford to lose. The risk disclosure explains each product in more detail.',
    '## 3. Demo accounts',
    'A demo account uses virtual funds only. They have no value, cannot be withdrawn, and the account is removed when it expires.',
    '## 4. Fair use',
    'Do not use the platform for money laundering, fraud, market manipulation or any other unlawful purpose, and do not try to break into or overload it. We may suspend accounts that do.',
    '## 5. Your data',
    'We process your personal data as the privacy notice describes. We will never ask for your wallet recovery phrase or private key, and our staff never ask for your password or verification codes.',
    '## 6. Changes and contact',
    'We may update this agreement. Each new version states what changed and the date it takes effect; we ask you to accept it when you next sign in. For any question, contact customer service.',
  ),
  body_zh: lines(
    '本协议由您与本 Bourse 平台的运营方（“我们”）订立。注册或使用本平台即表示您接受本协议，请仔细阅读。',
    '## 一、您的账户',
    '您须已达到所在地的法定年龄，并提供真实信息。请妥善保管密码和验证码：使用您账户进行的一切操作均由您负责。如怀疑他人使用了您的账户，请立即通知我们。',
    '## 二、交易风险',
    '加密资产、外汇、贵金属、能源、股票和 ETF 的价格可能快速波动，您可能损失全部投入资金。使用杠杆产品时，亏损可能超过保证金。过往业绩不代表未来收益。请只投入您能够承受损失的资金。风险披露对各产品有更详细的说明。',
    '## 三、模拟账户',
    '模拟账户仅使用虚拟资金，虚拟资金没有任何价值，不可提现，账户到期后将被删除。',
    '## 四、合规使用',
    '不得利用本平台从事洗钱、欺诈、操纵市场或其他任何违法活动，也不得试图入侵平台或使其超负荷运行。对于违反者，我们可以暂停其账户。',
    '## 五、您的数据',
    '我们按照隐私声明处理您的个人数据。我们绝不会索取您的钱包助记词或私钥，我们的工作人员也绝不会向您索要密码或验证码。',
    '## 六、协议变更与联系方式',
    '我们可能会更新本协议。每个新版本都会说明变更内容及生效日期，您下次登录时我们会请您确认接受。如有任何疑问，请联系客服。',
  ),
  body_ft: lines(
    '本協議由您與本 Bourse 平台的營運方（「我們」）訂立。註冊或使用本平台即表示您接受本協議，請仔細閱讀。',
    '## 一、您的帳戶',
    '您須已達到所在地的法定年齡，並提供真實資料。請妥善保管密碼和驗證碼：以您的帳戶進行的一切操作均由您負責。如懷疑他人使用了您的帳戶，請立即通知我們。',
    '## 二、交易風險',
    '加密資產、外匯、貴金屬、能源、股票和 ETF 的價格可能快速波動，您可能損失全部投入資金。使用槓桿產品時，虧損可能超過保證金。過往績效不代表未來收益。請只投入您能夠承受損失的資金。風險揭露對各產品有更詳細的說明。',
    '## 三、模擬帳戶',
    '模擬帳戶僅使用虛擬資金，虛擬資金沒有任何價值，不可提領，帳戶到期後將被刪除。',
    '## 四、合規使用',
    '不得利用本平台從事洗錢、詐騙、操縱市場或其他任何違法活動，也不得試圖入侵平台或使其超載運作。對於違反者，我們可以暫停其帳戶。',
    '## 五、您的資料',
    '我們依照隱私聲明處理您的個人資料。我們絕不會索取您的錢包助記詞或私鑰，我們的工作人員也絕不會向您索取密碼或驗證碼。',
    '## 六、協議變更與聯絡方式',
    '我們可能會更新本協議。每個新版本都會說明變更內容及生效日期，您下次登入時我們會請您確認接受。如有任何疑問，請聯絡客服。',
  ),
};

const PRIVACY: Texts = {
  title_en: 'Privacy Notice',
  title_zh: '隐私声明',
  title_ft: '隱私聲明',
  summary_en: 'The first version of the privacy notice: what we collect, why, and your rights.',
  summary_zh: '隐私声明第一版：我们收集哪些数据、为何收集以及您的权利。',
  summary_ft: '隱私聲明第一版：我們蒐集哪些資料、為何蒐集以及您的權利。',
  body_en: lines(
    'This notice explains how the operator of this platform handles your personal data.',
    '## What we collect',
    '- Your e-mail address or phone number, your country and your settings.',
    '- Identity documents and answers you give for verification and the risk questionnaire.',
    '- Your balances, orders, deposits, withdrawals and the addresses and bank details you save.',
    '- Technical data about your sign-ins: IP address, device and browser, times.',
    '## Why',
    'To run your account, verify who you are, meet anti-money-laundering and tax duties, keep the platform secure and answer you when you contact us. We do not sell your data.',
    '## How it is kept',
    'Identity documents are encrypted at rest and opened only through short-lived links; every staff view is recorded. We keep records as long as the law requires, then delete them.',
    '## Your rights',
    'You may ask for a copy of your data, ask us to correct it, and, where the law allows, to delete it or stop a use of it. Contact customer service from your account to do so.',
  ),
  body_zh: lines(
    '本声明说明本平台运营方如何处理您的个人数据。',
    '## 我们收集的数据',
    '- 您的电子邮箱或手机号码、国家或地区以及您的设置。',
    '- 身份认证和风险问卷中您提供的证件与回答。',
    '- 您的余额、订单、充值、提现以及您保存的地址和银行信息。',
    '- 登录相关的技术数据：IP 地址、设备和浏览器、时间。',
    '## 用途',
    '用于运营您的账户、核验您的身份、履行反洗钱和税务义务、保障平台安全以及在您联系我们时答复您。我们不会出售您的数据。',
    '## 保存方式',
    '身份证件加密存储，仅通过短时有效的链接打开；工作人员的每次查看都会被记录。我们按法律要求的期限保存记录，期满后删除。',
    '## 您的权利',
    '您可以要求获取您数据的副本、要求更正，并在法律允许的情况下要求删除或停止某项使用。请在账户中联系客服办理。',
  ),
  body_ft: lines(
    '本聲明說明本平台營運方如何處理您的個人資料。',
    '## 我們蒐集的資料',
    '- 您的電子郵件或手機號碼、國家或地區以及您的設定。',
    '- 身分認證和風險問卷中您提供的證件與回答。',
    '- 您的餘額、訂單、入金、提領以及您儲存的地址和銀行資料。',
    '- 登入相關的技術資料：IP 位址、裝置和瀏覽器、時間。',
    '## 用途',
    '用於營運您的帳戶、核實您的身分、履行防制洗錢和稅務義務、維護平台安全以及在您聯絡我們時答覆您。我們不會出售您的資料。',
    '## 保存方式',
    '身分證件加密儲存，僅透過短時有效的連結開啟；工作人員的每次檢視都會被記錄。我們依法律要求的期限保存紀錄，期滿後刪除。',
    '## 您的權利',
    '您可以要求取得您資料的副本、要求更正，並在法律允許的情況下要求刪除或停止某項使用。請在帳戶中聯絡客服辦理。',
  ),
};

const RISK: Texts = {
  title_en: 'Risk Disclosure',
  title_zh: '风险披露',
  title_ft: '風險揭露',
  summary_en: 'The first version of the risk disclosure for every product on this platform.',
  summary_zh: '本平台各产品风险披露的第一版。',
  summary_ft: '本平台各產品風險揭露的第一版。',
  body_en: lines(
    'Read this before you trade. It does not list every risk, and it is not investment advice.',
    '## Prices',
    "Crypto assets and other instruments can lose most of their value within hours. Prices shown here come from the platform's price feed; when the feed is simulated, the screen says so.",
    '## Leverage and contracts',
    'Leverage multiplies gains and losses. A position is closed automatically when its risk rate reaches the liquidation level, and you lose the margin it held. Funding and fees are charged as shown before you open.',
    '## Up/down options',
    'An option pays the stated rate if the price moves your way by expiry and loses the whole stake otherwise.',
    '## Earn, launchpad and loans',
    'Fixed-term products lock your funds for the term; early redemption can forfeit rewards. A new coin may never be listed or may trade below its issue price. A loan must be repaid with interest whatever your trades do.',
    '## Operations',
    'Networks, banks and this platform can be slow or unavailable. Keep your own records and never invest money you need.',
  ),
  body_zh: lines(
    '交易前请阅读本披露。它并未列出全部风险，也不构成投资建议。',
    '## 价格',
    '加密资产及其他品种可能在数小时内损失大部分价值。此处显示的价格来自平台的价格源；若价格源为模拟数据，页面会注明。',
    '## 杠杆与合约',
    '杠杆会同时放大盈利和亏损。持仓的风险率达到强平线时将被自动平仓，您将损失该持仓的保证金。资金费和手续费在开仓前按显示收取。',
    '## 涨跌期权',
    '到期时价格朝您预测的方向变动，期权按标明的收益率支付；否则损失全部投入。',
    '## 理财、新币申购与借贷',
    '定期产品在期限内锁定资金，提前赎回可能丧失收益。新币可能永远不会上市，或上市后低于发行价交易。无论交易结果如何，借款都须连本带息偿还。',
    '## 运营风险',
    '区块链网络、银行和本平台都可能延迟或暂时不可用。请自行保存记录，切勿投入您急需的资金。',
  ),
  body_ft: lines(
    '交易前請閱讀本揭露。它並未列出全部風險，也不構成投資建議。',
    '## 價格',
    '加密資產及其他商品可能在數小時內損失大部分價值。此處顯示的價格來自平台的報價來源；若報價來源為模擬資料，頁面會註明。',
    '## 槓桿與合約',
    '槓桿會同時放大獲利和虧損。持倉的風險率達到強平線時將被自動平倉，您將損失該持倉的保證金。資金費和手續費在開倉前按顯示收取。',
    '## 漲跌期權',
    '到期時價格朝您預測的方向變動，期權按標明的收益率支付；否則損失全部投入。',
    '## 理財、新幣申購與借貸',
    '定期產品在期限內鎖定資金，提前贖回可能喪失收益。新幣可能永遠不會上市，或上市後低於發行價交易。無論交易結果如何，借款都須連本帶息償還。',
    '## 營運風險',
    '區塊鏈網路、銀行和本平台都可能延遲或暫時無法使用。請自行保存紀錄，切勿投入您急需的資金。',
  ),
};

/** Version 1 of each agreement kind for DEMO_CONTENT: real text an operator can publish as is or replace. */
export const DEMO_AGREEMENTS: ReadonlyArray<{ kind: AgreementKind; texts: Texts }> = [
  { kind: 'user', texts: USER },
  { kind: 'privacy', texts: PRIVACY },
  { kind: 'risk', texts: RISK },
];

/**
 * Browser and operating system from a User-Agent header, for the signed-in devices list. Only what
 * a customer recognises ("Chrome 131", "Windows 10/11", "iOS 18.1"); an unknown agent is "Other".
 * Order matters: Edge, Opera and Samsung Internet also say "Chrome"; Chrome also says "Safari".
 */
const BROWSERS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS|HeadlessChrome|Chromium)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[\d.]*.*\bSafari\//],
];

function osOf(ua: string): string {
  const ios = ua.match(/\b(?:iPhone|iPad|iPod).*? OS (\d+)(?:_(\d+))?/);
  if (ios) return `iOS ${ios[1]}${ios[2] ? `.${ios[2]}` : ''}`;
  const android = ua.match(/\bAndroid (\d+(?:\.\d+)?)/);
  if (android) return `Android ${android[1]}`;
  if (/\bWindows NT 10\.0\b/.test(ua)) return 'Windows 10/11';
  const windows = ua.match(/\bWindows NT (\d+\.\d+)/);
  if (windows) return `Windows NT ${windows[1]}`;
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  const mac = ua.match(/\bMac OS X (\d+)[_.](\d+)/);
  if (mac) return `macOS ${mac[1]}.${mac[2]}`;
  if (/\bMacintosh\b/.test(ua)) return 'macOS';
  if (/\bLinux\b/.test(ua)) return 'Linux';
  return 'Other';
}

export function describeUserAgent(ua: string): { browser: string; os: string } {
  let browser = 'Other';
  for (const [name, pattern] of BROWSERS) {
    const match = ua.match(pattern);
    if (match) {
      browser = `${name} ${match[1]}`;
      break;
    }
  }
  return { browser, os: osOf(ua) };
}

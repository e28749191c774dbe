import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * Articles are markdown. Two guards, one on each side of the database:
 * - on write, `unsafeMarkup` refuses raw HTML and links that are not an app path, `http(s)` or
 *   `mailto` address, so what staff store is plain markdown (CONTENT_MARKUP_REFUSED names the field);
 * - on render, `renderMarkdown` runs markdown-it and then sanitize-html with an allow-list, so even a
 *   row written some other way (an import, an old row) reaches customers without scripts, event
 *   handlers or `javascript:` links. The back office's preview uses this same function.
 */

/** Parses raw HTML so `unsafeMarkup` can see it; never used to render. */
const parser = new MarkdownIt({ html: true, linkify: true });
/** Raw HTML on, so the sanitizer (not the escaper) decides: a tag passes the allow-list or goes. */
const renderer = new MarkdownIt({ html: true, linkify: true, breaks: true });

/** An app path (not `//host`), an anchor, an http(s) or mailto address. */
const SAFE_URL = /^(\/(?!\/)\S*|#\S*|https?:\/\/\S+|mailto:\S+)$/i;
/** Schemes markdown-it itself drops from a link (keeping its text), so the token walk never sees them. */
const BAD_SCHEME =
  /\]\(\s*<?\s*(javascript|vbscript|data|file):|^\s*\[[^\]]+\]:\s*<?\s*(javascript|vbscript|data|file):/im;

const ALIGN = { 'text-align': [/^(left|right|center)$/] };

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code'],
    ...['ul', 'ol', 'li', 'strong', 'em', 's', 'del', 'a', 'img'],
    ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title'],
    th: ['style'],
    td: ['style'],
    ol: ['start'],
  },
  allowedStyles: { th: ALIGN, td: ALIGN },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Outside addresses open apart from the app and learn nothing about it; app paths stay as they are.
    a: (tagName, attribs) => {
      const { target: _t, rel: _r, ...rest } = attribs;
      const external = /^(https?:|mailto:)/i.test(rest.href ?? '');
      return {
        tagName,
        attribs: external ? { ...rest, target: '_blank', rel: 'noopener noreferrer nofollow' } : rest,
      };
    },
  },
};

/** Markdown → HTML holding only the allowed tags, attributes and URL schemes. */
export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(renderer.render(markdown), SANITIZE);
}

type Tokens = ReturnType<typeof parser.parse>;

function unsafeToken(tokens: Tokens): 'html' | 'link' | null {
  for (const token of tokens) {
    if (token.type === 'html_block' || token.type === 'html_inline') return 'html';
    if (token.type === 'link_open' || token.type === 'image') {
      const target = String(token.attrGet(token.type === 'image' ? 'src' : 'href') ?? '');
      if (!SAFE_URL.test(target)) return 'link';
    }
    const inner = token.children ? unsafeToken(token.children) : null;
    if (inner) return inner;
  }
  return null;
}

/** Why a markdown source may not be stored: `html` (a raw tag) or `link` (an unsafe target); null when clean. */
export function unsafeMarkup(markdown: string): 'html' | 'link' | null {
  if (BAD_SCHEME.test(markdown)) return 'link';
  return unsafeToken(parser.parse(markdown, {}));
}

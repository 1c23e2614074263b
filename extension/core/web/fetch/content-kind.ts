// What a response body is and how to turn its bytes into text: HTML goes to the readable-content
// extractor, PDFs to the PDF text extractor, plain text formats pass through, and everything else
// (images, archives, media) is refused with a clear message rather than fed to the model as noise.
import { FetchError } from './fetch-error';

export type ContentKind = 'html' | 'pdf' | 'text';

export interface Classified {
  kind: ContentKind;
  /** The media type without parameters, e.g. text/html ('' when the server sent none). */
  mediaType: string;
  /** The charset parameter, if any. */
  charset?: string;
}

const TEXT_TYPES = new Set([
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/x-sh',
]);

function parseContentType(header: string | undefined): { mediaType: string; charset?: string } {
  if (!header) return { mediaType: '' };
  const [type, ...params] = header.split(';');
  const charset = params
    .map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1])
    .find((c): c is string => c !== undefined);
  return { mediaType: type.trim().toLowerCase(), charset };
}

function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1').trimStart().toLowerCase();
  return /^(<!doctype html|<html|<head|<body|<!--)/.test(head) || /<(html|head|body|title|p|div)[\s>]/.test(head);
}

function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
}

export function classifyBody(contentType: string | undefined, bytes: Uint8Array, url: URL): Classified {
  const { mediaType, charset } = parseContentType(contentType);
  const of = (kind: ContentKind): Classified => ({ kind, mediaType, charset });
  if (mediaType === 'application/pdf' || isPdf(bytes)) return of('pdf');
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return of('html');
  // Servers that say nothing, or only "binary", get sniffed.
  if (mediaType === '' || mediaType === 'application/octet-stream') {
    if (looksLikeHtml(bytes)) return of('html');
    if (!bytes.subarray(0, 4096).includes(0)) return of('text');
  }
  if (
    mediaType.startsWith('text/') ||
    TEXT_TYPES.has(mediaType) ||
    mediaType.endsWith('+json') ||
    mediaType.endsWith('+xml')
  )
    return of('text');
  throw new FetchError(
    'unsupported',
    `${url.href} is ${mediaType || 'binary data'}, which web_fetch cannot read: it reads web pages (HTML), PDFs ` +
      'and text.',
  );
}

/** The charset an HTML document declares in its first 1024 bytes (<meta charset> or http-equiv). */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head)?.[1];
}

/** Windows-1252's 0x80–0x9F (where it differs from ISO-8859-1); 0 where the code is unassigned. */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/**
 * Windows-1252, which the web uses for every "latin1", "iso-8859-1" and "ascii" label. Node's
 * TextDecoder decodes it as ISO-8859-1, turning curly quotes and dashes into control characters.
 */
function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const codes = Array.from(bytes.subarray(i, i + 8192), (b) =>
      b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80] || b : b,
    );
    out += String.fromCharCode(...codes);
  }
  return out;
}

type Decode = (bytes: Uint8Array) => string;

function decoderFor(label: string | undefined): Decode | undefined {
  if (!label) return undefined;
  try {
    const d = new TextDecoder(label.trim().toLowerCase());
    return d.encoding === 'windows-1252' ? decodeWindows1252 : (b) => d.decode(b);
  } catch {
    return undefined;
  }
}

/**
 * Bytes → text: a byte-order mark wins, then the header's charset, then (for HTML) the page's own
 * declaration, then UTF-8 — and windows-1252 when the bytes are not valid UTF-8 (old pages that
 * declare nothing).
 */
export function decodeBody(bytes: Uint8Array, c: Classified): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  const declared = decoderFor(c.charset) ?? (c.kind === 'html' ? decoderFor(metaCharset(bytes)) : undefined);
  if (declared) return declared(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

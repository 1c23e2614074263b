// Decoding and re-encoding file text so an edit keeps what the model never sees: the BOM, the
// encoding (UTF-8, UTF-16 LE/BE, Latin-1 for bytes that are not valid UTF-8) and the line endings.

export type TextEncodingName = 'utf8' | 'utf16le' | 'utf16be' | 'latin1';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  bom: boolean;
  eol: '\n' | '\r\n';
}

export type Decoded = ({ kind: 'text' } & DecodedText) | { kind: 'binary'; reason: string };

const SNIFF_BYTES = 8192;

function hasBom(b: Uint8Array, ...sig: number[]): boolean {
  return b.length >= sig.length && sig.every((v, i) => b[i] === v);
}

/** The dominant line ending: CRLF when at least half the line breaks are CRLF. */
export function detectEol(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > 0 && crlf >= lf ? '\r\n' : '\n';
}

function swap16(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length - (b.length % 2));
  for (let i = 0; i + 1 < b.length; i += 2) {
    out[i] = b[i + 1];
    out[i + 1] = b[i];
  }
  return out;
}

/** Heuristic used by git and ripgrep: a NUL byte early in the file means binary. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

export function decodeText(bytes: Uint8Array): Decoded {
  let text: string;
  let encoding: TextEncodingName = 'utf8';
  let bom = false;
  if (hasBom(bytes, 0xef, 0xbb, 0xbf)) {
    bom = true;
    text = new TextDecoder('utf-8').decode(bytes.subarray(3));
  } else if (hasBom(bytes, 0xff, 0xfe)) {
    bom = true;
    encoding = 'utf16le';
    text = new TextDecoder('utf-16le').decode(bytes.subarray(2));
  } else if (hasBom(bytes, 0xfe, 0xff)) {
    bom = true;
    encoding = 'utf16be';
    text = new TextDecoder('utf-16le').decode(swap16(bytes.subarray(2)));
  } else {
    if (looksBinary(bytes)) return { kind: 'binary', reason: 'it contains NUL bytes' };
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      // Not UTF-8: treat as Latin-1 so every byte round-trips unchanged.
      encoding = 'latin1';
      text = Buffer.from(bytes).toString('latin1');
      if (controlRatio(text) > 0.1) return { kind: 'binary', reason: 'it is not valid text in any supported encoding' };
    }
  }
  return { kind: 'text', text, encoding, bom, eol: detectEol(text) };
}

function controlRatio(text: string): number {
  const n = Math.min(text.length, SNIFF_BYTES);
  if (n === 0) return 0;
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || (c >= 0x7f && c < 0xa0)) bad++;
  }
  return bad / n;
}

export function encodeText(text: string, enc: Pick<DecodedText, 'encoding' | 'bom'>): Uint8Array {
  switch (enc.encoding) {
    case 'utf8': {
      const body = Buffer.from(text, 'utf8');
      return enc.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
    }
    case 'utf16le': {
      const body = Buffer.from(text, 'utf16le');
      return enc.bom ? Buffer.concat([Buffer.from([0xff, 0xfe]), body]) : body;
    }
    case 'utf16be': {
      const body = swap16(Buffer.from(text, 'utf16le'));
      return enc.bom ? Buffer.concat([Buffer.from([0xfe, 0xff]), body]) : Buffer.from(body);
    }
    case 'latin1':
      return Buffer.from(text, 'latin1');
  }
}

/** Converts the model's line breaks (usually LF) to the file's convention. */
export function toEol(text: string, eol: '\n' | '\r\n'): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === '\r\n' ? lf.replace(/\n/g, '\r\n') : lf;
}

/** Whether a string can be stored in Latin-1 without loss. */
export function fitsLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

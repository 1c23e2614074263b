// Jupyter notebooks (.ipynb, nbformat 4): rendering cells with their outputs for the model, and
// editing cells while keeping the file's JSON layout (indent, trailing newline) as Jupyter wrote it.
import type { ContentBlock } from '../../providers/types';
import { cutLine, stripAnsi } from './cap';

export interface NbCell {
  cell_type: string;
  id?: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  outputs?: unknown[];
  execution_count?: number | null;
  [k: string]: unknown;
}

export interface Notebook {
  cells: NbCell[];
  metadata?: Record<string, unknown>;
  nbformat?: number;
  nbformat_minor?: number;
  [k: string]: unknown;
}

export function parseNotebook(text: string): Notebook {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`not valid JSON (${(e as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || !Array.isArray((json as { cells?: unknown }).cells)) {
    throw new Error('not a Jupyter notebook: no "cells" array');
  }
  return json as Notebook;
}

export function joinSource(src: unknown): string {
  if (Array.isArray(src)) return src.map(String).join('');
  return typeof src === 'string' ? src : '';
}

/** Jupyter stores source as lines that keep their "\n", the last without one. */
export function splitSource(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  return parts.map((p, i) => (i < parts.length - 1 ? `${p}\n` : p)).filter((p) => p !== '');
}

function notebookLanguage(nb: Notebook): string {
  const meta = nb.metadata as { language_info?: { name?: string }; kernelspec?: { language?: string } } | undefined;
  return meta?.language_info?.name ?? meta?.kernelspec?.language ?? 'python';
}

const MAX_OUTPUT_CHARS = 4000;

/** Renders cells (with outputs) as text blocks; images in outputs become image blocks when allowed. */
export function renderNotebook(nb: Notebook, supportsImages: boolean): { blocks: ContentBlock[]; text: string } {
  const lang = notebookLanguage(nb);
  const blocks: ContentBlock[] = [];
  const texts: string[] = [];
  let images = 0;
  nb.cells.forEach((cell, i) => {
    const id = cell.id ? ` id="${cell.id}"` : '';
    const count =
      cell.cell_type === 'code' && cell.execution_count != null ? ` execution_count=${cell.execution_count}` : '';
    const src = joinSource(cell.source);
    const fence = cell.cell_type === 'code' ? lang : cell.cell_type === 'markdown' ? 'markdown' : '';
    const eol = src.endsWith('\n') || src === '' ? '' : '\n';
    let t = `<cell index=${i}${id} type=${cell.cell_type}${count}>\n\`\`\`${fence}\n${src}${eol}\`\`\`\n`;
    const outs: string[] = [];
    for (const raw of cell.outputs ?? []) {
      const o = raw as {
        output_type?: string;
        name?: string;
        text?: unknown;
        data?: Record<string, unknown>;
        ename?: string;
        evalue?: string;
        traceback?: unknown;
      };
      if (o.output_type === 'stream') outs.push(stripAnsi(joinSource(o.text)));
      else if (o.output_type === 'error') {
        const tb = Array.isArray(o.traceback) ? o.traceback.map((l) => stripAnsi(String(l))).join('\n') : '';
        outs.push(`${o.ename ?? 'Error'}: ${o.evalue ?? ''}\n${tb}`);
      } else if (o.data) {
        const img = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'].find((m) => o.data?.[m] !== undefined);
        if (img) {
          if (supportsImages && images < 5) {
            images++;
            outs.push(`[${img} output: shown as image ${images}]`);
            blocks.push({ type: 'text', text: t + outsText(outs) });
            blocks.push({ type: 'image', mediaType: img, dataBase64: joinSource(o.data[img]).replace(/\s+/g, '') });
            t = '';
            outs.length = 0;
            continue;
          }
          outs.push(`[${img} output]`);
        }
        const plain = o.data['text/plain'] ?? o.data['text/markdown'];
        if (plain !== undefined && !img) outs.push(stripAnsi(joinSource(plain)));
        else if (o.data['text/html'] !== undefined && !img) outs.push('[text/html output]');
      }
    }
    t += `${outsText(outs)}</cell>\n`;
    texts.push(t);
    blocks.push({ type: 'text', text: t });
  });
  return { blocks: mergeText(blocks), text: texts.join('\n') };
}

function outsText(outs: string[]): string {
  if (outs.length === 0) return '';
  let body = outs.join('\n').replace(/\n+$/, '');
  if (body.length > MAX_OUTPUT_CHARS)
    body = `${body.slice(0, MAX_OUTPUT_CHARS)}\n… [output cut: ${body.length - MAX_OUTPUT_CHARS} more characters]`;
  return `Outputs:\n${body
    .split('\n')
    .map((l) => cutLine(l, 500))
    .join('\n')}\n`;
}

function mergeText(blocks: ContentBlock[]): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const b of blocks) {
    const last = out[out.length - 1];
    if (b.type === 'text' && last?.type === 'text') last.text += `\n${b.text}`;
    else if (b.type !== 'text' || b.text !== '') out.push({ ...b });
  }
  return out;
}

/** Serialises like the original: same indent, same trailing newline. */
export function serializeNotebook(nb: Notebook, originalText: string): string {
  const m = /\n([ \t]+)"/.exec(originalText);
  const indent = m ? m[1] : ' ';
  const trailing = originalText.endsWith('\n') ? '\n' : '';
  return JSON.stringify(nb, null, indent) + trailing;
}

export function newCellId(existing: Set<string>): string {
  for (;;) {
    const id = Math.random().toString(16).slice(2, 10);
    if (!existing.has(id)) return id;
  }
}

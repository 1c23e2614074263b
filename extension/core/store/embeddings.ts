// Embeddings from any OpenAI-compatible `/embeddings` endpoint (OpenAI, OpenRouter, Ollama,
// LM Studio, …) via fetch — no SDK needed for one POST. Vectors are normalised to unit length so
// cosine similarity is a dot product.
import * as z from 'zod';

export interface Embedder {
  /** Identifies the vector space: vectors of another model are never compared. */
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface OpenAiEmbedderOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  headers?: Record<string, string>;
  fetchImpl?: typeof fetch;
  /** Inputs per request. */
  batchSize?: number;
  timeoutMs?: number;
}

const ResponseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
});

export function normalise(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (const x of out) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < out.length; i++) out[i] /= n;
  return out;
}

export function dot(a: Float32Array, b: Float32Array): number {
  const len = Math.min(a.length, b.length);
  let s = 0;
  for (let i = 0; i < len; i++) s += a[i] * b[i];
  return s;
}

export function openAiEmbedder(opts: OpenAiEmbedderOptions): Embedder {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const doFetch = opts.fetchImpl ?? fetch;
  const batch = Math.max(1, opts.batchSize ?? 64);
  return {
    model: opts.model,
    async embed(texts, signal) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batch) {
        const input = texts.slice(i, i + batch);
        const timeout = AbortSignal.timeout(opts.timeoutMs ?? 30_000);
        const res = await doFetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
            ...opts.headers,
          },
          body: JSON.stringify({ model: opts.model, input }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        // The body of an error may echo the request; report the status only.
        if (!res.ok) throw new Error(`embeddings endpoint answered HTTP ${res.status}`);
        const parsed = ResponseSchema.safeParse(await res.json());
        if (!parsed.success || parsed.data.data.length !== input.length)
          throw new Error('embeddings endpoint returned an unexpected shape');
        const sorted = [...parsed.data.data].sort((a, b) => a.index - b.index);
        for (const d of sorted) out.push(normalise(d.embedding));
      }
      return out;
    },
  };
}

export function vecToBlob(v: Float32Array): Uint8Array {
  return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}

export function blobToVec(b: Uint8Array): Float32Array {
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

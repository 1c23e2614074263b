// Where a database-sized buffer lives: sql.js's file contents and exported snapshots (through the hook
// scripts/sqljs-file-bytes.mjs adds to its glue) and the snapshot read at open.
//
// Why not a plain Uint8Array: on Linux, Node takes its memory from glibc's malloc, and freeing one
// buffer of several megabytes raises glibc's mmap and trim thresholds to that size for the rest of the
// process, so every malloc arena (V8's compiler threads' too) then keeps up to twice the database's size
// of freed memory resident. RSS grew with the hot database and varied by ±10 MB between runs of the
// same window. A WebAssembly.Memory is mapped by V8's page allocator instead, and unmapped when
// collected: it never passes through malloc, so the thresholds stay where they were.
//
// Small buffers (most files of the in-memory file system: journals, temporary files) stay plain arrays:
// a memory per small file would cost more than it saves.

/** From this size a buffer is placed outside malloc (glibc's default mmap threshold is 128 KiB). */
export const FILE_BYTES_OUTSIDE_MALLOC = 1 << 20;
const WASM_PAGE = 65_536;
/** Above this a plain array (a wasm32 memory holds at most 4 GiB; sql.js cannot export that much anyway). */
const MAX_PAGES = 32_768;

let placedOutside = 0;

/** `n` zeroed bytes; from 1 MiB up in a memory of their own outside malloc, else a plain array. */
export function fileBytes(n: number): Uint8Array {
  if (n < FILE_BYTES_OUTSIDE_MALLOC) return new Uint8Array(n);
  const pages = Math.ceil(n / WASM_PAGE);
  if (pages > MAX_PAGES) return new Uint8Array(n);
  try {
    const bytes = new Uint8Array(new WebAssembly.Memory({ initial: pages }).buffer, 0, n);
    placedOutside++;
    return bytes;
  } catch {
    // Address space for another memory refused (many not yet collected): plain bytes still work.
    return new Uint8Array(n);
  }
}

/** How many buffers fileBytes() placed outside malloc so far (tests: the hook is wired). */
export function fileBytesPlacedOutside(): number {
  return placedOutside;
}

// Stands in for linkedom's CSS parser (cssomnom, ~195 KB) in the research-html bundle (see the alias
// in esbuild.mjs). linkedom calls it only when a <style> element's `.sheet` is read; Readability and
// turndown never read it, so the fetch pipeline has no use for parsed style sheets. Should anything
// start reading `.sheet`, it fails loudly here instead of silently returning nothing.

export function parse(_css: string): never {
  throw new Error('CSS style sheets are not parsed in the research-html bundle (see esbuild.mjs).');
}

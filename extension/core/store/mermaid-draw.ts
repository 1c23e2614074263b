// The entry of dist/mermaid-draw.js: beautiful-mermaid (and elkjs, its layout engine, ~2 MB together) in a
// bundle of its own, so neither activation nor the runtime loads it; the extension requires it on the
// first HTML or PDF export that holds a diagram (extension/vscode/mermaid-host.ts) and hands its
// renderer to the export (export-diagrams.ts). The chat view draws with the same package in its own chunk.
export { renderMermaidSVG } from 'beautiful-mermaid';

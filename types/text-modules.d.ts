// Prompts under prompts/*.md are bundled by esbuild's `text` loader.
declare module '*.md' {
  const text: string;
  export default text;
}

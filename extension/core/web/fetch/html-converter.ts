// The contract of the HTML → Markdown bundle (dist/research-html.js, built from html-to-markdown.ts).
// Core imports only these types; the bundle itself is loaded on the first HTML page, so linkedom,
// Readability and turndown never load at activation or when the runtime starts.

export interface ReadableHtml {
  /** The article's title (Readability's, else the document's <title>). */
  title: string;
  /** The readable part as Markdown, links and images made absolute. */
  markdown: string;
  /** The readable part as plain text, one block per line. */
  text: string;
  /** False when Readability found no article and the page body (without scripts, styles, …) was used. */
  readable: boolean;
}

export interface HtmlConverter {
  /**
   * `url` is the page's final URL: relative links resolve against it (or the page's <base href>).
   * The bundle converts in place; the runtime's converter (html-worker-client.ts) in a worker thread.
   */
  htmlToMarkdown(html: string, url: string): ReadableHtml | Promise<ReadableHtml>;
}

export type LoadHtmlConverter = () => Promise<HtmlConverter>;

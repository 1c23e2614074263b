// Typesetting TeX, in its own chunk (loaded by rich-blocks.ts when an answer holds math). KaTeX's
// MathML output only: Chromium draws MathML itself, so no KaTeX stylesheet or fonts ship and nothing
// needs an inline style the view's CSP forbids. `trust: false` (no \href, \url, \includegraphics…)
// and the result goes through DOMPurify's MathML profile before it is shown.
import katex from 'katex';
import createDOMPurify from 'dompurify';
// From its own file: the protocol's index would bring zod, whose eval probe the view's CSP refuses.
import { MATH_TYPESETTING } from '../extension/protocol/report-blocks';

const purify = createDOMPurify(window);

/** The formula as a MathML element; throws with KaTeX's message on TeX it cannot read. */
export function renderMath(tex: string, display: boolean): Element {
  const markup = katex.renderToString(tex, { ...MATH_TYPESETTING, displayMode: display });
  // The TeX annotation would stay behind as visible text once DOMPurify drops its <semantics> wrapper;
  // the element's label carries the TeX instead.
  const shown = markup.replace(/<annotation[\s\S]*?<\/annotation>/g, '');
  const clean = purify.sanitize(shown, { USE_PROFILES: { mathMl: true }, RETURN_DOM_FRAGMENT: true });
  const math = clean.querySelector('math');
  if (!math) throw new Error('the formula produced nothing');
  math.setAttribute('aria-label', tex);
  return math;
}

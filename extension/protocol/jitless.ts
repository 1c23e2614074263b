// Side-effect module for the chat view: import it before anything that defines a schema.
// zod compiles object schemas with `new Function` when the page allows it, probing once per
// schema definition. Under the view's CSP (script-src 'nonce-…', no 'unsafe-eval') the probe is
// refused and Chromium reports a CSP violation; turning the JIT off means zod never tries.
// The extension host does not import this: Node allows eval and validation is faster with it.
import { config } from 'zod';

config({ jitless: true });

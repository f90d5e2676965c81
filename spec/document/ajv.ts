import { createRequire } from 'node:module';
import type { Ajv2020, Options } from 'ajv/dist/2020.js';

// Loaded on the first createAjv(), not with this module: Ajv is ~50 ms of module loading, and most
// processes never compile a schema (the build's standalone validators, spec/document/schema.ts),
// among them every adapter process a run spawns (dist/harnesses/host.js).
const require = createRequire(import.meta.url);

// ajv-formats is CommonJS with `exports.default`; depending on the loader the default import is
// either the plugin or the module object carrying it.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;

/** A draft 2020-12 validator instance with the standard formats (date-time, uri, ...). */
export function createAjv(options: Options = {}): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const formats = require('ajv-formats') as { default?: FormatsPlugin } & FormatsPlugin;
  const addFormats: FormatsPlugin = formats.default ?? formats;
  return addFormats(new Ajv(options));
}

import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with `exports.default`; depending on the loader the default import is
// either the plugin or the module object carrying it.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

/** A draft 2020-12 validator instance with the standard formats (date-time, uri, ...). */
export function createAjv(options: Options = {}): Ajv2020 {
  return addFormats(new Ajv2020(options));
}

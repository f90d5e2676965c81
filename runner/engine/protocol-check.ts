import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { methods, type MethodName } from '../../protocol/messages.js';
import { createAjv } from '../../spec/document/ajv.js';
import { fromRoot } from '../../spec/package-root.js';

const SCHEMA_DIR = fromRoot('protocol', 'schema');

/**
 * `--check-protocol`: validates every message on the wire, requests included, against the
 * committed JSON Schemas (protocol/schema/). The engine already checks every result with
 * the zod types; this second, independent check uses exactly what adapter authors validate
 * against, so a difference between the two shows up as a protocol finding instead of silently.
 */
export class ProtocolChecker {
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv = createAjv({ allErrors: false, strict: false });

  constructor(private readonly dir = SCHEMA_DIR) {}

  private validator(file: string): ValidateFunction {
    const cached = this.validators.get(file);
    if (cached) return cached;
    const schema = JSON.parse(readFileSync(join(this.dir, file), 'utf8')) as object;
    const compiled = this.ajv.compile(schema);
    this.validators.set(file, compiled);
    return compiled;
  }

  /** One-line problem description, or undefined when the message is valid. */
  private check(file: string, value: unknown): string | undefined {
    const v = this.validator(file);
    if (v(value)) return undefined;
    const e = v.errors?.[0];
    return `${file}: ${e?.instancePath || '/'} ${e?.message ?? 'invalid'}`;
  }

  request(message: unknown): string | undefined {
    const envelope = this.check('rpc-request.schema.json', message);
    if (envelope) return envelope;
    const { method, params } = message as { method: string; params?: unknown };
    if (!Object.hasOwn(methods, method)) return `unknown method ${method}`;
    return this.check(`${method as MethodName}.params.schema.json`, params ?? {});
  }

  response(method: MethodName, message: unknown): string | undefined {
    const envelope = this.check('rpc-response.schema.json', message);
    if (envelope) return envelope;
    const m = message as { result?: unknown; error?: unknown };
    if ('error' in m) return undefined;
    return this.check(`${method}.result.schema.json`, m.result);
  }
}

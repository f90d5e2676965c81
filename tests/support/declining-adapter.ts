import { PROTOCOL_VERSION } from '../../protocol/messages.js';
import type { InProcessAdapter } from '../../sdk/ts/types.js';
import { AdapterDecline } from '../../protocol/errors.js';

/**
 * An adapter that claims everything in its handshake and answers every operation "not
 * implemented": against it no case may pass (a skip is never a pass) and none may fail.
 */
export function decliningAdapter(level: 1 | 2 | 3): InProcessAdapter {
  return {
    async handle(method: string) {
      if (method !== 'initialize') throw new AdapterDecline('not-implemented', `${method} is not implemented`);
      return {
        protocol_version: PROTOCOL_VERSION,
        implementation: { name: 'declines-everything', version: '0', language: 'typescript' },
        level,
        encodings: ['yaml', 'json', 'md'],
        discovery_roots: ['managed', 'user', 'project', 'plugin'],
        unimplemented: [],
      };
    },
  };
}

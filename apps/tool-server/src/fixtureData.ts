/** Static payloads of the conformance fixture (CONFORMANCE.md section 6). */

/** A 1×1 transparent PNG, base64. */
export const PNG_1X1_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A valid 8 kHz, 8-bit mono WAV file of `samples` samples of silence, base64. */
export function silentWavBase64(samples = 8): string {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples, 40);
  // 8-bit PCM is unsigned: 128 is silence.
  return Buffer.concat([header, Buffer.alloc(samples, 128)]).toString('base64');
}

/**
 * The harness's `JSON_SCHEMA_2020_12_FIXTURE` (conformance 0.2.0-alpha.12), served verbatim as the input schema of
 * `json_schema_2020_12_tool`: `$schema`, `$defs` with `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else` and
 * `additionalProperties: false` must all survive `tools/list` unchanged.
 */
export const JSON_SCHEMA_2020_12_FIXTURE = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  // biome-ignore lint/suspicious/noThenProperty: the JSON Schema `then` keyword, which must be served as is
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as const;

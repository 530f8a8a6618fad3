// fast-check arbitraries derived from the JSON schemas the routes publish in /api/openapi.json (their zod
// schemas, converted by fastify-type-provider-zod), for the hostile-input test: values that pass validation,
// so a request reaches the handler instead of stopping at a 400, mixed with values that are nearly right.
import fc from 'fast-check';

/** The part of JSON Schema (OpenAPI 3.0 dialect) the routes' schemas use. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minItems?: number;
  maxItems?: number;
}

export interface Hints {
  /** Real ids in the database (users, call logs, prospects, jobs), used for id-like strings. */
  ids: string[];
  /** Addresses and passwords of real accounts, and open invitation codes. */
  emails: string[];
  passwords: string[];
  codes: string[];
}

const some = (values: string[], fallback: string) =>
  fc.constantFrom(...(values.length ? values : [fallback]));

/** An ordinary address of the kind people type (fc.emailAddress's RFC corner cases are refused by design). */
const plainEmail = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9.+-]{0,12}$/),
    fc.constantFrom('example.com', 'example.org', 'mail.test'),
  )
  .map(([local, domain]) => `${local}@${domain}`);

const EDGE_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  'null',
  'undefined',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '\u0000',
  '💥',
];

/** A string that fits the schema, shaped after the property name when the name says what it holds. */
function stringFor(schema: JsonSchema, name: string, hints: Hints): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 60, 60);
  const fits = (s: string) => s.length >= min && s.length <= (schema.maxLength ?? Infinity);
  const key = name.toLowerCase();
  const shaped: fc.Arbitrary<string>[] = [];
  if (key.includes('email')) shaped.push(plainEmail, some(hints.emails, 'a@example.com'), fc.emailAddress());
  if (key.includes('password'))
    shaped.push(fc.string({ minLength: 8, maxLength: 20 }), some(hints.passwords, 'password1'));
  if (key.includes('website') || key.includes('url')) shaped.push(fc.webUrl());
  if (key.includes('phone')) shaped.push(fc.constantFrom('+1 415 555 0100', '(717) 555-0199 ext. 12'));
  if (key === 'timestamp' || key.endsWith('at'))
    shaped.push(fc.date().map((d) => (isNaN(d.getTime()) ? '' : d.toISOString())));
  if (key.includes('category'))
    shaped.push(fc.constantFrom('Dental', 'Legal', 'Restaurant', 'Auto Repair', 'dentist'));
  if (key === 'outcome') shaped.push(fc.constantFrom('Called', 'Visited', 'Called', 'Visited', 'Emailed'));
  if (key === 'csv')
    shaped.push(fc.constantFrom('name,address\nAcme Dental,1 Main St', 'name\n"unterminated', ''));
  if (key.endsWith('id') || key === 'token')
    shaped.push(some(hints.ids, 'x'), fc.constantFrom('osm:node/1', 'demo:1', 'google:ChIJ'));
  if (key === 'tz') shaped.push(fc.constantFrom('UTC', 'America/Chicago', 'Asia/Kathmandu', 'Mars/Olympus'));
  if (key === 'from' || key === 'to' || key === 'date')
    shaped.push(
      fc
        .date({ min: new Date('2024-01-01'), max: new Date('2027-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10)),
    );
  if (key === 'code' || key === 'invitationcode') shaped.push(some(hints.codes, 'NOPE1234'));
  if (key === 'ref') shaped.push(fc.constantFrom('places/ChIJplace1/photos/AUc7ref1', 'places/x/photos/y'));
  // A pattern (a ZIP code, a photo name) is matched, or hardly any generated value would pass validation.
  if (schema.pattern) {
    return fc.oneof(
      { weight: 4, arbitrary: fc.stringMatching(new RegExp(schema.pattern)).filter(fits) },
      { weight: 1, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
    );
  }
  const plain = fc.string({ minLength: min, maxLength: Math.max(min, max) });
  return fc
    .oneof(
      { weight: 3, arbitrary: shaped.length ? fc.oneof(...shaped) : plain },
      { weight: 2, arbitrary: plain },
      { weight: 1, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
      { weight: 1, arbitrary: fc.constant('y'.repeat(schema.maxLength ?? 300)) },
    )
    .filter(fits);
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo = schema.minimum ?? -1e6;
  const hi = schema.maximum ?? 1e6;
  const minExcluded = schema.exclusiveMinimum === true;
  const maxExcluded = schema.exclusiveMaximum === true;
  if (integer) {
    const min = Math.ceil(minExcluded ? lo + 1 : lo);
    const max = Math.floor(maxExcluded ? hi - 1 : hi);
    return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
  }
  return fc.oneof(
    fc.double({ min: lo, max: hi, minExcluded, maxExcluded, noNaN: true }),
    fc.constantFrom(...[lo, hi].filter((v, i) => !(i === 0 ? minExcluded : maxExcluded))),
  );
}

/** Values that satisfy the schema (with hints for names that say what they hold). */
export function validValue(schema: JsonSchema, hints: Hints, name = '', depth = 0): fc.Arbitrary<unknown> {
  const base = ((): fc.Arbitrary<unknown> => {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum?.length) return fc.constantFrom(...schema.enum);
    const choices = schema.anyOf ?? schema.oneOf;
    if (choices?.length) return fc.oneof(...choices.map((s) => validValue(s, hints, name, depth + 1)));
    if (schema.allOf?.length)
      return validValue(Object.assign({}, ...schema.allOf) as JsonSchema, hints, name, depth);
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'string':
        return stringFor(schema, name, hints);
      case 'number':
        return numberFor(schema, false);
      case 'integer':
        return numberFor(schema, true);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        // A tuple, as OpenAPI 3.0 renders one: its positions' schemas as `items.anyOf`, its length fixed.
        if (
          schema.items?.anyOf?.length &&
          schema.minItems === schema.items.anyOf.length &&
          schema.maxItems === schema.minItems
        ) {
          return fc.tuple(...schema.items.anyOf.map((s) => validValue(s, hints, name, depth + 1)));
        }
        return fc.array(validValue(schema.items ?? {}, hints, name, depth + 1), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 4, 4),
        });
      case 'object':
      case undefined: {
        if (!schema.properties)
          return depth > 3
            ? fc.constant({})
            : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
        const props = Object.fromEntries(
          Object.entries(schema.properties).map(([key, s]) => [key, validValue(s, hints, key, depth + 1)]),
        );
        return fc.record(props, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  })();
  return schema.nullable
    ? fc.oneof({ weight: 4, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) })
    : base;
}

/**
 * Bodies for a route: mostly valid for its schema (so they reach the handler), else nearly valid (one field
 * dropped, of the wrong type, or an unknown field added), or anything at all.
 */
export function bodyFor(schema: JsonSchema | undefined, hints: Hints): fc.Arbitrary<unknown> {
  const anything = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 200 }));
  if (!schema) return anything;
  const valid = validValue(schema, hints);
  const nearly = fc
    .tuple(valid, fc.nat(), fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('drop', 'retype', 'extra'))
    .map(([value, n, junk, how]) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return junk;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(copy);
      const key = keys.length ? keys[n % keys.length]! : 'unexpected';
      if (how === 'drop') delete copy[key];
      else if (how === 'retype') copy[key] = junk;
      else copy[`x${n % 100}`] = junk;
      return copy;
    });
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 3, arbitrary: nearly },
    { weight: 2, arbitrary: anything },
  );
}

/** A query-string value for a parameter schema: valid, or junk. */
export function queryValueFor(schema: JsonSchema, name: string, hints: Hints): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: validValue(schema, hints, name).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom(...EDGE_STRINGS, 'NaN', '1e309', '[]', '{}'),
      ),
    },
  );
}
